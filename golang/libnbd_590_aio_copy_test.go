// An asynchronous copy with many requests in flight is exact.
package libnbd

import (
	"bytes"
	"testing"
)

const copySize = 4 << 20
const copyChunk = 64 << 10

func Test590AioCopy(t *testing.T) {
	src := connectNbdkit(t, "pattern", "size=4M")
	dst := connectNbdkit(t, "memory", "4M")
	if err := src.SetPreadInitialize(false); err != nil {
		t.Fatal(err)
	}
	type req struct {
		buf AioBuffer
		off uint64
	}
	inFlight := 0
	for off := uint64(0); off < copySize; off += copyChunk {
		r := &req{MakeAioBuffer(copyChunk), off}
		/* Each read, once complete, starts its write. */
		readDone := func(e *int) int {
			if *e != 0 {
				t.Errorf("read at %d: errno %d", r.off, *e)
			}
			_, err := dst.AioPwrite(r.buf, r.off, &AioPwriteOptargs{
				CompletionCallbackSet: true,
				CompletionCallback: func(e *int) int {
					inFlight--
					r.buf.Free()
					return 1
				}})
			if err != nil {
				t.Errorf("AioPwrite: %s", err)
			}
			return 1
		}
		_, err := src.AioPread(r.buf, off, &AioPreadOptargs{
			CompletionCallbackSet: true, CompletionCallback: readDone})
		if err != nil {
			t.Fatalf("AioPread: %s", err)
		}
		inFlight++
	}
	for inFlight > 0 {
		n, _ := src.AioInFlight()
		if n > 0 {
			src.Poll(0)
		}
		if m, _ := dst.AioInFlight(); m > 0 {
			dst.Poll(0)
		}
	}
	got := make([]byte, copySize)
	if err := dst.Pread(got, 0, nil); err != nil {
		t.Fatalf("Pread: %s", err)
	}
	if !bytes.Equal(got, patternAt(0, copySize)) {
		t.Fatalf("copy differs from the source")
	}
}
