// Every callback given to libnbd leaves the registry exactly when
// libnbd frees it: after completion, on failure, and on Close.
package libnbd

import "testing"

func Test620ClosuresFreed(t *testing.T) {
	base := callbackCount()
	h := connectNbdkit(t, "memory", "1M")
	buf := MakeAioBuffer(512)
	defer buf.Free()
	_, err := h.AioPread(buf, 0, &AioPreadOptargs{CompletionCallbackSet: true,
		CompletionCallback: func(e *int) int { return 1 }})
	if err != nil {
		t.Fatal(err)
	}
	if callbackCount() != base+1 {
		t.Fatalf("registry holds %d, want %d", callbackCount(), base+1)
	}
	for callbackCount() != base {
		if _, err := h.Poll(-1); err != nil {
			t.Fatal(err)
		}
	}
	/* A call that fails frees its callback at once. */
	h2 := newHandle(t)
	_, err = h2.AioPread(buf, 0, &AioPreadOptargs{CompletionCallbackSet: true,
		CompletionCallback: func(e *int) int { return 1 }})
	if err == nil || callbackCount() != base {
		t.Fatalf("failed AioPread: %v, registry %d", err, callbackCount())
	}
	/* Close frees the debug callback. */
	h2.SetDebugCallback(func(c, m string) int { return 0 })
	if callbackCount() != base+1 {
		t.Fatalf("registry holds %d after SetDebugCallback", callbackCount())
	}
	h2.Close()
	if callbackCount() != base {
		t.Fatalf("registry holds %d after Close", callbackCount())
	}
}
