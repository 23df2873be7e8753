// Connecting to a subprocess leaves the handle ready.
package libnbd

import "testing"

func Test200ConnectCommand(t *testing.T) {
	h := connectNbdkit(t, "null")
	if ready, err := h.AioIsReady(); err != nil || !ready {
		t.Fatalf("AioIsReady: %v %v", ready, err)
	}
	if p, err := h.GetProtocol(); err != nil || *p != "newstyle-fixed" {
		t.Fatalf("GetProtocol: %v %v", p, err)
	}
	if err := h.Shutdown(nil); err != nil {
		t.Fatalf("Shutdown: %s", err)
	}
}
