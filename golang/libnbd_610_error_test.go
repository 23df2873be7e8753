// Errors carry the call, libnbd's message and errno, and print right.
package libnbd

import (
	"strings"
	"syscall"
	"testing"
)

func Test610Error(t *testing.T) {
	h := newHandle(t)
	err := h.Pread(make([]byte, 512), 0, nil)
	e, ok := err.(*LibnbdError)
	if !ok || e.Errno != syscall.ENOTCONN {
		t.Fatalf("Pread when not connected: %v", err)
	}
	if e.Op != "pread" || !strings.HasPrefix(e.Errmsg, "nbd_pread: ") {
		t.Fatalf("Op %q Errmsg %q", e.Op, e.Errmsg)
	}
	want := "pread: " + e.Errmsg + ": " + syscall.ENOTCONN.Error()
	if e.Error() != want {
		t.Fatalf("Error() %q, want %q", e.Error(), want)
	}
}

func Test610ErrorStrings(t *testing.T) {
	cases := []struct {
		e    LibnbdError
		want string
	}{
		{LibnbdError{"op", "msg", syscall.EINVAL}, "op: msg: invalid argument"},
		{LibnbdError{"op", "msg", 0}, "op: msg"},
		{LibnbdError{"op", "", syscall.EIO}, "op: input/output error"},
		{LibnbdError{"op", "", 0}, "op"},
	}
	for _, c := range cases {
		if got := c.e.Error(); got != c.want {
			t.Errorf("Error() %q, want %q", got, c.want)
		}
	}
}

func Test610ErrorOtherThread(t *testing.T) {
	/* The message is copied on the thread of the failing call, so
	   goroutines hopping threads still see their own error. */
	done := make(chan error)
	for i := 0; i < 8; i++ {
		go func() {
			h, _ := Create()
			defer h.Close()
			done <- h.SetExportName(strings.Repeat("x", 5000))
		}()
	}
	for i := 0; i < 8; i++ {
		err := <-done
		if e, ok := err.(*LibnbdError); !ok ||
			e.Errno != syscall.ENAMETOOLONG ||
			!strings.HasPrefix(e.Errmsg, "nbd_set_export_name: ") {
			t.Errorf("SetExportName of 5000 bytes: %v", err)
		}
	}
}

func Test610ErrorNotSupported(t *testing.T) {
	/* A sockaddr cannot be passed from Go: refused, not a crash. */
	h := newHandle(t)
	err := h.AioConnect("127.0.0.1:10809")
	if e, ok := err.(*LibnbdError); !ok || e.Errno != syscall.ENOTSUP {
		t.Fatalf("AioConnect: %v", err)
	}
}
