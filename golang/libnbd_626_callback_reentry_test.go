// A callback that calls a locked method of its own handle gets an
// EDEADLK error at once, where libnbd's bindings wait for ever for the
// lock the callback's own goroutine (on its own thread) holds; the
// calls that skip the lock, and other handles, work from a callback;
// Close is refused too (it would free the handle under the callback);
// and afterwards the handle goes on working.
package libnbd

import (
	"bytes"
	"strings"
	"syscall"
	"testing"
)

// checkRefused fails the test unless err is the refusal of op.
func checkRefused(t *testing.T, op string, err error) {
	t.Helper()
	e, ok := err.(*LibnbdError)
	if !ok || e.Errno != syscall.EDEADLK ||
		!strings.Contains(e.Errmsg, "callback of the same handle") {
		t.Errorf("%s from a callback: got %v, want EDEADLK", op, err)
	}
}

func Test626CallbackReentry(t *testing.T) {
	h := connectNbdkit(t, "memory", "size=1M")
	other := connectNbdkit(t, "pattern", "size=1M")
	ran := false
	completion := func(error *int) int {
		ran = true
		checkRefused(t, "Pread", h.Pread(make([]byte, 512), 0, nil))
		_, err := h.GetSize()
		checkRefused(t, "GetSize", err)
		_, err = h.GetDebug() // cannot fail in C, refused here
		checkRefused(t, "GetDebug", err)
		// Would free the handle under the Poll running this callback.
		if err := h.Close(); err != nil {
			checkRefused(t, "Close", err)
		} else {
			t.Errorf("Close from a callback: no error, want EDEADLK")
		}
		if n, err := h.StatsBytesSent(); err != nil || n == 0 {
			t.Errorf("StatsBytesSent (skips the lock): %d, %v", n, err)
		}
		got := make([]byte, 8)
		if err := other.Pread(got, 8, nil); err != nil ||
			!bytes.Equal(got, patternAt(8, 8)) {
			t.Errorf("other handle's Pread: %v, %v", got, err)
		}
		return 1
	}
	buf := MakeAioBuffer(512)
	defer buf.Free()
	_, err := h.AioPread(buf, 0, &AioPreadOptargs{
		CompletionCallbackSet: true, CompletionCallback: completion})
	if err != nil {
		t.Fatalf("AioPread: %s", err)
	}
	for {
		n, err := h.AioInFlight()
		if err != nil {
			t.Fatalf("AioInFlight: %s", err)
		}
		if n == 0 {
			break
		}
		if _, err := h.Poll(-1); err != nil {
			t.Fatalf("Poll: %s", err)
		}
	}
	if !ran {
		t.Fatalf("the completion callback did not run")
	}

	// From a chunk callback of a synchronous call, the same.
	chunks := 0
	chunk := func(subbuf []byte, offset uint64, status uint, error *int) int {
		chunks++
		checkRefused(t, "Pwrite", h.Pwrite([]byte("x"), 0, nil))
		return 0
	}
	if err := h.PreadStructured(make([]byte, 512), 0, chunk, nil); err != nil {
		t.Fatalf("PreadStructured: %s", err)
	}
	if chunks == 0 {
		t.Fatalf("the chunk callback did not run")
	}

	// Nothing of the refused calls reached the server or stayed behind.
	got := make([]byte, 512)
	if err := h.Pread(got, 0, nil); err != nil ||
		!bytes.Equal(got, make([]byte, 512)) {
		t.Fatalf("Pread afterwards: %v", err)
	}
	if err := h.Pwrite([]byte("y"), 0, nil); err != nil {
		t.Fatalf("Pwrite afterwards: %s", err)
	}
	if err := h.Pread(got[:1], 0, nil); err != nil || got[0] != 'y' {
		t.Fatalf("Pread after Pwrite: %q, %v", got[:1], err)
	}
}

// The completion that Close runs for a command still in flight finds
// the handle being freed: its calls are refused, not run on it.
func Test626CallbackDuringClose(t *testing.T) {
	needNbdkit(t)
	h, err := Create()
	if err != nil {
		t.Fatalf("Create: %s", err)
	}
	argv := []string{"nbdkit", "-s", "--exit-with-parent",
		"--filter=delay", "memory", "size=1M", "rdelay=10"}
	if err := h.ConnectCommand(argv); err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}
	var during error
	ran := false
	completion := func(error *int) int {
		ran = true
		during = h.Pread(make([]byte, 512), 0, nil)
		return 1
	}
	buf := MakeAioBuffer(512)
	defer buf.Free()
	if _, err := h.AioPread(buf, 0, &AioPreadOptargs{
		CompletionCallbackSet: true, CompletionCallback: completion}); err != nil {
		t.Fatalf("AioPread: %s", err)
	}
	if err := h.Close(); err != nil {
		t.Fatalf("Close: %s", err)
	}
	if !ran {
		t.Fatalf("Close did not run the completion of the command in flight")
	}
	checkRefused(t, "Pread during Close", during)
}
