// AioPread reads into an AioBuffer while the caller polls.
package libnbd

import (
	"bytes"
	"testing"
)

func Test500AioPread(t *testing.T) {
	h := connectNbdkit(t, "pattern", "size=1M")
	buf := MakeAioBuffer(4096)
	defer buf.Free()
	cookie, err := h.AioPread(buf, 65536, nil)
	if err != nil {
		t.Fatalf("AioPread: %s", err)
	}
	waitFor(t, h, cookie)
	if !bytes.Equal(buf.Bytes(), patternAt(65536, 4096)) {
		t.Fatalf("AioPread: wrong data")
	}
}
