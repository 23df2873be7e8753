// OptInfo reports an export's size without leaving negotiation.
package libnbd

import "testing"

func Test230OptInfo(t *testing.T) {
	needNbdkit(t)
	h := newHandle(t)
	if err := h.SetOptMode(true); err != nil {
		t.Fatal(err)
	}
	err := h.ConnectCommand([]string{"nbdkit", "-s", "--exit-with-parent",
		"null", "size=4096"})
	if err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}
	if err := h.OptInfo(); err != nil {
		t.Fatalf("OptInfo: %s", err)
	}
	if size, err := h.GetSize(); err != nil || size != 4096 {
		t.Fatalf("GetSize after OptInfo: %d %v", size, err)
	}
	if neg, _ := h.AioIsNegotiating(); !neg {
		t.Fatalf("left negotiation after OptInfo")
	}
	if err := h.OptGo(); err != nil {
		t.Fatalf("OptGo: %s", err)
	}
	if ready, _ := h.AioIsReady(); !ready {
		t.Fatalf("not ready after OptGo")
	}
}
