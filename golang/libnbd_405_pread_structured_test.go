// PreadStructured hands every data chunk to the chunk callback.
package libnbd

import (
	"bytes"
	"testing"
)

func Test405PreadStructured(t *testing.T) {
	h := connectNbdkit(t, "pattern", "size=1M")
	buf := make([]byte, 512)
	calls := 0
	chunk := func(sub []byte, offset uint64, status uint, e *int) int {
		calls++
		if status != uint(READ_DATA) || offset != 8 ||
			!bytes.Equal(sub, patternAt(8, 512)) {
			t.Errorf("chunk: offset %d status %d", offset, status)
		}
		return 0
	}
	if err := h.PreadStructured(buf, 8, chunk, nil); err != nil {
		t.Fatalf("PreadStructured: %s", err)
	}
	if calls != 1 || !bytes.Equal(buf, patternAt(8, 512)) {
		t.Fatalf("%d chunk calls, or wrong data", calls)
	}
}
