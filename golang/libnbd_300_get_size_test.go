// GetSize reports the export's size.
package libnbd

import "testing"

func Test300GetSize(t *testing.T) {
	h := connectNbdkit(t, "null", "size=8G")
	size, err := h.GetSize()
	if err != nil {
		t.Fatalf("GetSize: %s", err)
	}
	if size != 8<<30 {
		t.Fatalf("GetSize: %d", size)
	}
}
