// OptAbort ends negotiation: the handle is closed, not connected.
package libnbd

import "testing"

func Test210OptAbort(t *testing.T) {
	needNbdkit(t)
	h := newHandle(t)
	if err := h.SetOptMode(true); err != nil {
		t.Fatal(err)
	}
	err := h.ConnectCommand([]string{"nbdkit", "-s", "--exit-with-parent",
		"null"})
	if err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}
	if p, _ := h.GetProtocol(); *p != "newstyle-fixed" {
		t.Fatalf("GetProtocol: %s", *p)
	}
	if err := h.OptAbort(); err != nil {
		t.Fatalf("OptAbort: %s", err)
	}
	if closed, _ := h.AioIsClosed(); !closed {
		t.Fatalf("not closed after OptAbort")
	}
}
