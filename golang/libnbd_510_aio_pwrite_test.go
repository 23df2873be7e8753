// AioPwrite's completion callback runs once, with no error.
package libnbd

import (
	"bytes"
	"testing"
)

func Test510AioPwrite(t *testing.T) {
	h := connectNbdkit(t, "memory", "1M")
	data := bytes.Repeat([]byte{0xa5}, 8192)
	buf := FromBytes(data)
	defer buf.Free()
	calls, status := 0, -1
	done := func(e *int) int {
		calls++
		status = *e
		return 1 /* retire the command */
	}
	_, err := h.AioPwrite(buf, 0, &AioPwriteOptargs{
		CompletionCallbackSet: true, CompletionCallback: done})
	if err != nil {
		t.Fatalf("AioPwrite: %s", err)
	}
	for calls == 0 {
		if _, err := h.Poll(-1); err != nil {
			t.Fatalf("Poll: %s", err)
		}
	}
	if calls != 1 || status != 0 {
		t.Fatalf("completion: %d calls, error %d", calls, status)
	}
	back := make([]byte, len(data))
	if err := h.Pread(back, 0, nil); err != nil || !bytes.Equal(back, data) {
		t.Fatalf("read back differs (%v)", err)
	}
}
