// BlockStatus64 and BlockStatusFilter over extended headers, against
// tests/ext-server: 64-bit extents, and only the chosen contexts.
package libnbd

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

const (
	extSize    = uint64(8) << 30 // ext-server's export
	extInverse = "x-ext:inverse"
	mib        = uint64(1) << 20
	gib        = uint64(1) << 30
)

// extServerPath finds tests/ext-server of this build tree, or skips.
func extServerPath(t *testing.T) string {
	t.Helper()
	top := os.Getenv("abs_top_builddir")
	if top == "" {
		top = ".."
	}
	path := filepath.Join(top, "tests", "ext-server")
	if st, err := os.Stat(path); err != nil || st.Mode()&0111 == 0 {
		t.Skipf("%s is not built (make -C tests ext-server)", path)
	}
	return path
}

// connectExtServer connects a handle asking for both of ext-server's
// contexts, with extended headers agreed; 4M at 4G+4M is zeroed.
func connectExtServer(t *testing.T) *Libnbd {
	t.Helper()
	path := extServerPath(t)
	h := newHandle(t)
	for _, c := range []string{CONTEXT_BASE_ALLOCATION, extInverse} {
		if err := h.AddMetaContext(c); err != nil {
			t.Fatalf("AddMetaContext: %s", err)
		}
	}
	if err := h.ConnectCommand([]string{path, "good"}); err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}
	if ext, err := h.GetExtendedHeadersNegotiated(); err != nil || !ext {
		t.Fatalf("GetExtendedHeadersNegotiated: %v %v", ext, err)
	}
	if err := h.Zero(4*mib, 4*gib+4*mib, nil); err != nil {
		t.Fatalf("Zero: %s", err)
	}
	return h
}

// extentsByContext collects every extent the callback is given.
func extentsByContext(got map[string][]LibnbdExtent) Extent64Callback {
	return func(ctx string, offset uint64, e []LibnbdExtent, err *int) int {
		got[ctx] = append(got[ctx], e...)
		return 0
	}
}

// The map after connectExtServer, in base:allocation's flags; the
// first extent is longer than 32 bits can say.
func extMap(data, hole uint64) []LibnbdExtent {
	return []LibnbdExtent{{4*gib + 4*mib, data}, {4 * mib, hole},
		{extSize - 4*gib - 8*mib, data}}
}

func Test465BlockStatus64Extended(t *testing.T) {
	h := connectExtServer(t)
	got := map[string][]LibnbdExtent{}
	if err := h.BlockStatus64(extSize, 0, extentsByContext(got),
		nil); err != nil {
		t.Fatalf("BlockStatus64: %s", err)
	}
	hole := uint64(STATE_HOLE | STATE_ZERO)
	if want := extMap(0, hole); !reflect.DeepEqual(
		got[CONTEXT_BASE_ALLOCATION], want) {
		t.Fatalf("base:allocation: got %v, want %v",
			got[CONTEXT_BASE_ALLOCATION], want)
	}
	if want := extMap(hole, 0); !reflect.DeepEqual(got[extInverse], want) {
		t.Fatalf("%s: got %v, want %v", extInverse, got[extInverse], want)
	}
}

func Test465BlockStatusFilter(t *testing.T) {
	h := connectExtServer(t)
	if ok, err := h.CanBlockStatusPayload(); err != nil || !ok {
		t.Fatalf("CanBlockStatusPayload: %v %v", ok, err)
	}
	hole := uint64(STATE_HOLE | STATE_ZERO)
	for _, contexts := range [][]string{{extInverse},
		{CONTEXT_BASE_ALLOCATION}, {extInverse, CONTEXT_BASE_ALLOCATION}} {
		got := map[string][]LibnbdExtent{}
		if err := h.BlockStatusFilter(extSize, 0, contexts,
			extentsByContext(got), nil); err != nil {
			t.Fatalf("BlockStatusFilter %v: %s", contexts, err)
		}
		if len(got) != len(contexts) {
			t.Fatalf("BlockStatusFilter %v: contexts seen %v", contexts, got)
		}
		for _, c := range contexts {
			want := extMap(0, hole)
			if c == extInverse {
				want = extMap(hole, 0)
			}
			if !reflect.DeepEqual(got[c], want) {
				t.Fatalf("BlockStatusFilter %v: %s: got %v, want %v",
					contexts, c, got[c], want)
			}
		}
	}

	// A context that was not negotiated is refused before sending.
	err := h.BlockStatusFilter(mib, 0, []string{"qemu:dirty-bitmap:x"},
		extentsByContext(map[string][]LibnbdExtent{}), nil)
	var e *LibnbdError
	if !errors.As(err, &e) || e.Errno != syscall.EINVAL {
		t.Fatalf("BlockStatusFilter of an unknown context: %v", err)
	}
	if n, err := h.AioInFlight(); err != nil || n != 0 {
		t.Fatalf("AioInFlight: %d %v", n, err)
	}
}
