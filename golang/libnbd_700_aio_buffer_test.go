// AioBuffer: allocation, copies, views, and panics after Free.
package libnbd

import (
	"bytes"
	"testing"
)

func Test700AioBuffer(t *testing.T) {
	z := MakeAioBufferZero(4096)
	if !bytes.Equal(z.Bytes(), make([]byte, 4096)) {
		t.Fatalf("MakeAioBufferZero not zero")
	}
	z.Free()
	z.Free() /* harmless */

	data := []byte("hello, aio buffer")
	b := FromBytes(data)
	defer b.Free()
	if b.Size != uint(len(data)) || !bytes.Equal(b.Bytes(), data) {
		t.Fatalf("FromBytes round trip")
	}
	b.Slice()[0] = 'H'
	if *b.Get(0) != 'H' || b.Bytes()[0] != 'H' {
		t.Fatalf("Slice is not a view of the buffer")
	}
	c := b.Bytes()
	c[1] = 'E'
	if *b.Get(1) != 'e' {
		t.Fatalf("Bytes is not a copy")
	}
}

func Test700AioBufferUseAfterFree(t *testing.T) {
	for name, use := range map[string]func(b *AioBuffer){
		"Bytes": func(b *AioBuffer) { b.Bytes() },
		"Slice": func(b *AioBuffer) { b.Slice() },
		"Get":   func(b *AioBuffer) { b.Get(0) },
	} {
		b := MakeAioBuffer(16)
		b.Free()
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s after Free did not panic", name)
				}
			}()
			use(&b)
		}()
	}
}

func Test700AioBufferFreedInCall(t *testing.T) {
	/* A freed buffer panics before libnbd or the registry sees it. */
	h := newHandle(t)
	b := MakeAioBuffer(512)
	b.Free()
	base := callbackCount()
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("AioPread of a freed buffer did not panic")
			}
		}()
		h.AioPread(b, 0, &AioPreadOptargs{CompletionCallbackSet: true,
			CompletionCallback: func(e *int) int { return 1 }})
	}()
	if callbackCount() != base {
		t.Errorf("the registry kept the callback of a call that panicked")
	}
}
