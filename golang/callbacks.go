// The registry keeping Go callbacks alive while libnbd holds them.
package libnbd

/*
#include <stdint.h>
#include <libnbd.h>
#include "wrappers.h"
*/
import "C"

import (
	"sync"
	"unsafe"
)

// C cannot hold Go pointers, so it holds an id instead.  An id lives
// from registerCallback until libnbd calls the closure's .free, which
// it does exactly once, also when the call taking it fails.
var (
	callbackMu  sync.Mutex
	callbackMap = map[C.long]interface{}{}
	callbackID  C.long
)

func registerCallback(f interface{}) C.long {
	callbackMu.Lock()
	defer callbackMu.Unlock()
	callbackID++
	callbackMap[callbackID] = f
	return callbackID
}

func lookupCallback(id C.long) interface{} {
	callbackMu.Lock()
	defer callbackMu.Unlock()
	f, ok := callbackMap[id]
	if !ok {
		panic("libnbd: callback called after it was freed")
	}
	return f
}

//export golangFreeCallback
func golangFreeCallback(id C.long) {
	callbackMu.Lock()
	defer callbackMu.Unlock()
	delete(callbackMap, id)
}

// callbackCount says how many callbacks libnbd holds now (for tests).
func callbackCount() int {
	callbackMu.Lock()
	defer callbackMu.Unlock()
	return len(callbackMap)
}

func copyUint32Array(p *C.uint32_t, n C.size_t) []uint32 {
	r := make([]uint32, n)
	for i, v := range unsafe.Slice(p, n) {
		r[i] = uint32(v)
	}
	return r
}

func copyExtentArray(p *C.nbd_extent, n C.size_t) []LibnbdExtent {
	r := make([]LibnbdExtent, n)
	for i, v := range unsafe.Slice(p, n) {
		r[i] = LibnbdExtent{Length: uint64(v.length), Flags: uint64(v.flags)}
	}
	return r
}
