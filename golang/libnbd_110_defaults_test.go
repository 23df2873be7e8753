// A new handle has libnbd's default settings.
package libnbd

import "testing"

func Test110Defaults(t *testing.T) {
	h := newHandle(t)
	name, err := h.GetExportName()
	if err != nil || *name != "" {
		t.Fatalf("GetExportName: %v %v", name, err)
	}
	bools := []struct {
		name string
		get  func() (bool, error)
		want bool
	}{
		{"GetFullInfo", h.GetFullInfo, false},
		{"GetOptMode", h.GetOptMode, false},
		{"GetTlsVerifyPeer", h.GetTlsVerifyPeer, true},
		{"GetRequestStructuredReplies", h.GetRequestStructuredReplies, true},
		{"GetRequestMetaContext", h.GetRequestMetaContext, true},
		{"GetRequestBlockSize", h.GetRequestBlockSize, true},
		{"GetPreadInitialize", h.GetPreadInitialize, true},
	}
	for _, b := range bools {
		if v, err := b.get(); err != nil || v != b.want {
			t.Errorf("%s: %v (%v), want %v", b.name, v, err, b.want)
		}
	}
	if tls, _ := h.GetTls(); tls != TLS_DISABLE {
		t.Errorf("GetTls: %d", tls)
	}
	if f, _ := h.GetHandshakeFlags(); f != HANDSHAKE_FLAG_MASK {
		t.Errorf("GetHandshakeFlags: 0x%x", f)
	}
	if s, _ := h.GetStrictMode(); s&STRICT_COMMANDS == 0 {
		t.Errorf("GetStrictMode: 0x%x", s)
	}
}
