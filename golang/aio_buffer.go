// AioBuffer: a buffer in C memory for asynchronous reads and writes.
package libnbd

/*
#include <stdlib.h>
#include <string.h>
*/
import "C"

import "unsafe"

// AioBuffer is memory that stays put while a command is in flight
// (the Go collector may move or free Go memory, C memory it leaves
// alone).  Free it when done; using it after Free panics.
type AioBuffer struct {
	P    unsafe.Pointer
	Size uint
}

// MakeAioBuffer allocates size bytes of uninitialized memory.
func MakeAioBuffer(size uint) AioBuffer {
	return AioBuffer{C.malloc(C.size_t(size)), size}
}

// MakeAioBufferZero allocates size bytes of zeroed memory.
func MakeAioBufferZero(size uint) AioBuffer {
	return AioBuffer{C.calloc(C.size_t(1), C.size_t(size)), size}
}

// FromBytes allocates a buffer holding a copy of buf.
func FromBytes(buf []byte) AioBuffer {
	b := MakeAioBuffer(uint(len(buf)))
	copy(b.Slice(), buf)
	return b
}

// Free releases the memory.  Freeing twice is harmless.
func (b *AioBuffer) Free() {
	if b.P != nil {
		C.free(b.P)
		b.P = nil
	}
}

func (b *AioBuffer) check() {
	if b.P == nil {
		panic("libnbd: AioBuffer used after Free() (or never allocated)")
	}
}

// Bytes copies the contents into a new Go slice.
func (b *AioBuffer) Bytes() []byte {
	b.check()
	r := make([]byte, b.Size)
	copy(r, b.Slice())
	return r
}

// Slice is a Go view of the C memory, without copying.  It is valid
// until Free; do not keep it longer.
func (b *AioBuffer) Slice() []byte {
	b.check()
	return unsafe.Slice((*byte)(b.P), b.Size)
}

// Get returns a pointer to byte i.
func (b *AioBuffer) Get(i uint) *byte {
	b.check()
	if i >= b.Size {
		panic("libnbd: AioBuffer index out of range")
	}
	return (*byte)(unsafe.Add(b.P, i))
}

// pointer is the buffer for a C call.
func (b AioBuffer) pointer() unsafe.Pointer {
	b.check()
	return b.P
}
