// Helpers shared by the tests: a handle connected to a fresh nbdkit.
package libnbd

import (
	"os/exec"
	"testing"
)

// needNbdkit skips the test when nbdkit is not installed.
func needNbdkit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("nbdkit"); err != nil {
		t.Skip("nbdkit not found in $PATH")
	}
}

// newHandle creates a handle closed at the end of the test.
func newHandle(t *testing.T) *Libnbd {
	t.Helper()
	h, err := Create()
	if err != nil {
		t.Fatalf("Create: %s", err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// connectNbdkit connects a new handle to "nbdkit -s PLUGIN ARGS...".
func connectNbdkit(t *testing.T, args ...string) *Libnbd {
	t.Helper()
	needNbdkit(t)
	h := newHandle(t)
	argv := append([]string{"nbdkit", "-s", "--exit-with-parent"}, args...)
	if err := h.ConnectCommand(argv); err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}
	return h
}

// patternAt is what nbdkit's pattern plugin serves at offset: each
// 8-byte word holds its own offset, big-endian.
func patternAt(offset uint64, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		o := offset + uint64(i)
		word := o &^ 7
		b[i] = byte(word >> (8 * (7 - o%8)))
	}
	return b
}

// waitFor polls h until the command with this cookie has completed.
func waitFor(t *testing.T, h *Libnbd, cookie uint64) {
	t.Helper()
	for {
		done, err := h.AioCommandCompleted(cookie)
		if err != nil {
			t.Fatalf("AioCommandCompleted: %s", err)
		}
		if done {
			return
		}
		if _, err := h.Poll(-1); err != nil {
			t.Fatalf("Poll: %s", err)
		}
	}
}
