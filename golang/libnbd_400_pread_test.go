// Pread returns the export's bytes.
package libnbd

import (
	"bytes"
	"testing"
)

func Test400Pread(t *testing.T) {
	h := connectNbdkit(t, "pattern", "size=1M")
	buf := make([]byte, 512)
	if err := h.Pread(buf, 8, nil); err != nil {
		t.Fatalf("Pread: %s", err)
	}
	if !bytes.Equal(buf, patternAt(8, 512)) {
		t.Fatalf("Pread: wrong data")
	}
}
