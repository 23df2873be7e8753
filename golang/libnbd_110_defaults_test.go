// A new handle has libnbd's default settings.
package libnbd

import "testing"

func Test110Defaults(t *testing.T) {
	h := newHandle(t)
	name, err := h.GetExportName()
	if err != nil || *name != "" {
		t.Fatalf("GetExportName: %v %v", name, err)
	}
	bools := map[string]func() (bool, error){
		"GetFullInfo":                 h.GetFullInfo,
		"GetOptMode":                  h.GetOptMode,
		"GetTlsVerifyPeer":            func() (bool, error) { v, e := h.GetTlsVerifyPeer(); return !v, e },
		"GetRequestStructuredReplies": func() (bool, error) { v, e := h.GetRequestStructuredReplies(); return !v, e },
		"GetRequestMetaContext":       func() (bool, error) { v, e := h.GetRequestMetaContext(); return !v, e },
		"GetRequestBlockSize":         func() (bool, error) { v, e := h.GetRequestBlockSize(); return !v, e },
		"GetPreadInitialize":          func() (bool, error) { v, e := h.GetPreadInitialize(); return !v, e },
	}
	for n, f := range bools {
		if v, err := f(); err != nil || v {
			t.Errorf("%s: not the default (%v)", n, err)
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
