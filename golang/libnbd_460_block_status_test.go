// BlockStatus and BlockStatus64 describe data and holes of the export.
package libnbd

import "testing"

func blockStatusHandle(t *testing.T) *Libnbd {
	needNbdkit(t)
	h := newHandle(t)
	if err := h.AddMetaContext(CONTEXT_BASE_ALLOCATION); err != nil {
		t.Fatal(err)
	}
	/* 64K of data, then 64K of zeroes (a hole). */
	err := h.ConnectCommand([]string{"nbdkit", "-s", "--exit-with-parent",
		"data", "data=1 * 65536", "size=131072"})
	if err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}
	return h
}

func Test460BlockStatus(t *testing.T) {
	h := blockStatusHandle(t)
	var got []uint32
	cb := func(ctx string, offset uint64, entries []uint32, e *int) int {
		if ctx == CONTEXT_BASE_ALLOCATION {
			got = append(got, entries...)
		}
		return 0
	}
	if err := h.BlockStatus(131072, 0, cb, nil); err != nil {
		t.Fatalf("BlockStatus: %s", err)
	}
	if len(got) < 4 || got[0] != 65536 || got[1] != 0 ||
		got[3] != STATE_HOLE|STATE_ZERO {
		t.Fatalf("BlockStatus entries: %v", got)
	}
}

func Test460BlockStatus64(t *testing.T) {
	h := blockStatusHandle(t)
	var got []LibnbdExtent
	cb := func(ctx string, offset uint64, e []LibnbdExtent, err *int) int {
		got = append(got, e...)
		return 0
	}
	if err := h.BlockStatus64(131072, 0, cb, nil); err != nil {
		t.Fatalf("BlockStatus64: %s", err)
	}
	if len(got) < 2 || got[0] != (LibnbdExtent{65536, 0}) ||
		got[1].Flags != uint64(STATE_HOLE|STATE_ZERO) {
		t.Fatalf("BlockStatus64 extents: %v", got)
	}
	// Compact headers (nbdkit has no extended ones): 32-bit extents
	// widened, covering the request and no more.
	if ext, err := h.GetExtendedHeadersNegotiated(); err != nil || ext {
		t.Fatalf("GetExtendedHeadersNegotiated: %v %v", ext, err)
	}
	var total uint64
	for _, e := range got {
		total += e.Length
	}
	if total != 131072 {
		t.Fatalf("BlockStatus64 extents cover %d bytes: %v", total, got)
	}
}
