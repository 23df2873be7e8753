// Package libnbd is the Go binding of libnbd, an NBD client library.
//
// Every call is a method on *Libnbd generated from the API table of the
// C library (see bindings.go); this file holds the handle and errors.
//
// A callback runs with its handle's lock held, so on its own handle it
// may make only the calls that take no lock (the Stats*, AioGetDirection,
// AioIs*, AioInFlight, ... methods); any other method of that handle
// fails at once with EDEADLK, where libnbd's binding waits for ever,
// and so does Close, which there frees the handle under the callback.
// Other handles are not limited.
package libnbd

/*
#cgo LDFLAGS: -lnbd
#include <stdlib.h>
#include <libnbd.h>
#include "wrappers.h"
*/
import "C"

import (
	"runtime"
	"syscall"
	"unsafe"
)

// Libnbd is a handle, one connection to an NBD server.
type Libnbd struct {
	h *C.struct_nbd_handle
}

// String describes the handle, for debugging.
func (h *Libnbd) String() string {
	if h.h == nil {
		return "&Libnbd{closed}"
	}
	return "&Libnbd{}"
}

// LibnbdExtent is one block status extent of the 64-bit callback.
type LibnbdExtent struct {
	Length uint64 // length of the extent in bytes
	Flags  uint64 // flags of the extent, meaning set by the meta context
}

// LibnbdError is the error of every failing call.
type LibnbdError struct {
	Op     string        // the call that failed, without "nbd_"
	Errmsg string        // what nbd_get_error said
	Errno  syscall.Errno // what nbd_get_errno said; 0 if unknown
}

// String formats the error as "op: message: errno text", leaving out
// the parts that are empty or zero.
func (e *LibnbdError) String() string {
	if e == nil {
		return "<nil>"
	}
	s := e.Op
	if e.Errmsg != "" {
		s += ": " + e.Errmsg
	}
	if e.Errno != 0 {
		s += ": " + e.Errno.Error()
	}
	return s
}

// Error implements the error interface.
func (e *LibnbdError) Error() string {
	return e.String()
}

// makeError takes the error a C shim saved, and frees its copy.
func makeError(op string, cErr *C.struct_go_error) *LibnbdError {
	e := &LibnbdError{Op: op, Errno: syscall.Errno(cErr.errnum)}
	if cErr.msg != nil {
		e.Errmsg = C.GoString(cErr.msg)
		C.free(unsafe.Pointer(cErr.msg))
		cErr.msg = nil
	}
	return e
}

func closedHandleError(op string) *LibnbdError {
	return &LibnbdError{Op: op, Errmsg: "handle is closed"}
}

func notSupportedError(op string) *LibnbdError {
	return &LibnbdError{Op: op, Errmsg: "not supported by the Go bindings",
		Errno: syscall.ENOTSUP}
}

// Create makes a new handle.  Close it when done; a finalizer closes
// handles that are forgotten.
func Create() (*Libnbd, error) {
	var cErr C.struct_go_error
	c := C._nbd_go_create(&cErr)
	if c == nil {
		return nil, makeError("create", &cErr)
	}
	h := &Libnbd{h: c}
	runtime.SetFinalizer(h, (*Libnbd).Close)
	return h, nil
}

// Close closes the handle, its connection and any subprocess, and
// frees every callback it still holds.  Closing twice is an error.
func (h *Libnbd) Close() *LibnbdError {
	if h.h == nil {
		return closedHandleError("close")
	}
	var cErr C.struct_go_error
	if C._nbd_go_close(&cErr, h.h) == -1 {
		return makeError("close", &cErr) // from its own callback
	}
	h.h = nil
	runtime.SetFinalizer(h, nil)
	return nil
}

// cStringList copies xs into a NULL-terminated array in C memory.
func cStringList(xs []string) **C.char {
	n := len(xs) + 1
	p := C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof((*C.char)(nil))))
	a := unsafe.Slice((**C.char)(p), n)
	for i, x := range xs {
		a[i] = C.CString(x)
	}
	a[len(xs)] = nil
	return (**C.char)(p)
}

func freeCStringList(p **C.char) {
	for a := p; *a != nil; a = (**C.char)(unsafe.Add(unsafe.Pointer(a),
		unsafe.Sizeof(*a))) {
		C.free(unsafe.Pointer(*a))
	}
	C.free(unsafe.Pointer(p))
}

// bytesPointer is the C view of a Go buffer for the length of one call.
func bytesPointer(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

// goStringPtr copies a C string; owned says the C side must be freed.
func goStringPtr(s *C.char, owned bool) *string {
	if s == nil {
		return nil
	}
	r := C.GoString(s)
	if owned {
		C.free(unsafe.Pointer(s))
	}
	return &r
}
