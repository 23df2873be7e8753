// The calls new in libnbd 1.24: the extra version, the handle size
// and the TLS priority string.
package libnbd

import (
	"strings"
	"syscall"
	"testing"
)

func Test130Calls124(t *testing.T) {
	h := newHandle(t)
	if _, err := h.GetVersionExtra(); err != nil {
		t.Fatalf("GetVersionExtra: %v", err)
	}
	size, err := h.GetHandleSize()
	if err != nil || size == 0 {
		t.Fatalf("GetHandleSize: %d %v", size, err)
	}
	if err := h.SetExportName(strings.Repeat("x", 4096)); err != nil {
		t.Fatal(err)
	}
	if bigger, _ := h.GetHandleSize(); bigger < size+4096 {
		t.Errorf("GetHandleSize: %d, then %d with a 4096 byte name",
			size, bigger)
	}
	p, err := h.GetTlsPriority()
	if err != nil || !strings.HasPrefix(*p, "NORMAL") {
		t.Fatalf("GetTlsPriority default: %v %v", p, err)
	}
	if err := h.SetTlsPriority("NORMAL:-VERS-TLS1.2"); err != nil {
		t.Fatal(err)
	}
	if p, _ := h.GetTlsPriority(); *p != "NORMAL:-VERS-TLS1.2" {
		t.Errorf("GetTlsPriority: %s", *p)
	}
	if err := h.SetUriAllowTlsPriority(true); err != nil {
		t.Fatal(err)
	}
	// Refused by a new handle's URI policy, with EPERM.
	h2 := newHandle(t)
	err = h2.ConnectUri("nbd+unix:///?socket=/nonexistent&tls-priority=NORMAL")
	e, ok := err.(*LibnbdError)
	if !ok || e.Errno != syscall.EPERM ||
		!strings.Contains(e.Errmsg, "nbd_set_uri_allow_tls_priority") {
		t.Errorf("ConnectUri with tls-priority=: %v", err)
	}
}
