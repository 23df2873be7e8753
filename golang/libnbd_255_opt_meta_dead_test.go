// A server that hangs up in the middle of AioOptSetMetaContext: the
// completion still runs, once, with ENOTCONN, while both callbacks are
// held, and dying releases them; Close has nothing left to free.
package libnbd

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

func Test255OptMetaDead(t *testing.T) {
	// tests/fake-server, built by "make check" there; ./run puts it
	// on $PATH.
	fakeServer, err := exec.LookPath("fake-server")
	if err != nil {
		t.Skip("tests/fake-server is not built")
	}
	base := callbackCount()
	h := newHandle(t)
	// The handshake asks for nothing itself: the server's first
	// NBD_OPT_SET_META_CONTEXT is the test's.
	if err := h.SetOptMode(true); err != nil {
		t.Fatal(err)
	}
	if err := h.SetRequestStructuredReplies(false); err != nil {
		t.Fatal(err)
	}
	if err := h.SetRequestExtendedHeaders(false); err != nil {
		t.Fatal(err)
	}
	if err := h.AddMetaContext(CONTEXT_BASE_ALLOCATION); err != nil {
		t.Fatal(err)
	}
	// One NBD_REP_META_CONTEXT, then the connection closes.
	err = h.ConnectCommand([]string{fakeServer, "script", "meta",
		"u64:omagic u32:opt u32:4 u32:19 u32:1 str:base:allocation close"})
	if err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}

	var events []string
	heldInCompletion := -1
	_, err = h.AioOptSetMetaContext(func(name string) int {
		events = append(events, "context "+name)
		return 0
	}, &AioOptSetMetaContextOptargs{CompletionCallbackSet: true,
		CompletionCallback: func(e *int) int {
			events = append(events, "completion "+syscall.Errno(*e).Error())
			heldInCompletion = callbackCount() - base
			return 1
		}})
	if err != nil {
		t.Fatalf("AioOptSetMetaContext: %s", err)
	}

	start := time.Now()
	for dead, _ := h.AioIsDead(); !dead; dead, _ = h.AioIsDead() {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("the option never ended: %v", events)
		}
		h.Poll(1000)
	}

	want := []string{"context base:allocation",
		"completion " + syscall.ENOTCONN.Error()}
	if len(events) != len(want) || events[0] != want[0] ||
		events[1] != want[1] {
		t.Fatalf("callbacks ran as %q, want %q", events, want)
	}
	if heldInCompletion != 2 {
		t.Fatalf("in the completion libnbd held %d callbacks, want 2",
			heldInCompletion)
	}
	if n := callbackCount() - base; n != 0 {
		t.Fatalf("the dead handle still holds %d callbacks", n)
	}
	h.Close()
	if len(events) != 2 || callbackCount() != base {
		t.Fatalf("Close: callbacks %q, registry %d over base", events,
			callbackCount()-base)
	}
}
