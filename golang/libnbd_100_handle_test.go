// A handle is created and closed; a closed handle refuses every call.
package libnbd

import "testing"

func Test100Handle(t *testing.T) {
	h, err := Create()
	if err != nil {
		t.Fatalf("Create: %s", err)
	}
	if e := h.Close(); e != nil {
		t.Fatalf("Close: %s", e)
	}
	if e := h.Close(); e == nil || e.Op != "close" {
		t.Fatalf("second Close: %v", e)
	}
	if _, err := h.GetSize(); err == nil ||
		err.Error() != "get_size: handle is closed" {
		t.Fatalf("GetSize on a closed handle: %v", err)
	}
}
