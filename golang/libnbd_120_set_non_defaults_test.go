// Settings changed before connecting read back; bad flags are refused.
package libnbd

import (
	"syscall"
	"testing"
)

func Test120SetNonDefaults(t *testing.T) {
	h := newHandle(t)
	if err := h.SetExportName("name"); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.GetExportName(); *v != "name" {
		t.Errorf("GetExportName: %s", *v)
	}
	if err := h.SetFullInfo(true); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.GetFullInfo(); !v {
		t.Errorf("GetFullInfo false")
	}
	if err := h.SetPreadInitialize(false); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.GetPreadInitialize(); v {
		t.Errorf("GetPreadInitialize true")
	}
	if err := h.SetHandshakeFlags(HANDSHAKE_FLAG_FIXED_NEWSTYLE); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.GetHandshakeFlags(); v != HANDSHAKE_FLAG_FIXED_NEWSTYLE {
		t.Errorf("GetHandshakeFlags: 0x%x", v)
	}
	err := h.SetHandshakeFlags(HANDSHAKE_FLAG_MASK + 1)
	if err == nil || err.(*LibnbdError).Errno != syscall.EINVAL {
		t.Errorf("SetHandshakeFlags with an unknown flag: %v", err)
	}
	if err := h.SetStrictMode(STRICT_MASK &^ STRICT_BOUNDS); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.GetStrictMode(); v != STRICT_MASK&^STRICT_BOUNDS {
		t.Errorf("GetStrictMode: 0x%x", v)
	}
	if err := h.SetHandleName("go-test"); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.GetHandleName(); *v != "go-test" {
		t.Errorf("GetHandleName: %s", *v)
	}
	if _, err := h.SetPrivateData(42); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.GetPrivateData(); v != 42 {
		t.Errorf("GetPrivateData: %d", v)
	}
}
