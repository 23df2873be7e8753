// Pwrite stores bytes that Pread then returns.
package libnbd

import (
	"bytes"
	"testing"
)

func Test410Pwrite(t *testing.T) {
	h := connectNbdkit(t, "memory", "1M")
	data := bytes.Repeat([]byte("go-pwrite"), 100)
	err := h.Pwrite(data, 4096, &PwriteOptargs{FlagsSet: true,
		Flags: CMD_FLAG_FUA})
	if err != nil {
		t.Fatalf("Pwrite: %s", err)
	}
	back := make([]byte, len(data))
	if err := h.Pread(back, 4096, nil); err != nil {
		t.Fatalf("Pread: %s", err)
	}
	if !bytes.Equal(back, data) {
		t.Fatalf("read back differs")
	}
	ro, _ := h.IsReadOnly()
	if ro {
		t.Fatalf("memory export read-only")
	}
}
