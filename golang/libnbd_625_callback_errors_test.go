// A callback that returns -1 fails its command with the errno it
// stored in *error, and is still freed exactly once.
package libnbd

import (
	"errors"
	"syscall"
	"testing"
)

// wantErrno checks that err is a *LibnbdError with errno want.
func wantErrno(t *testing.T, what string, err error, want syscall.Errno) {
	t.Helper()
	var e *LibnbdError
	if !errors.As(err, &e) || e.Errno != want {
		t.Errorf("%s: got %v, want errno %d (%s)", what, err, want, want)
	}
}

func Test625CallbackErrors(t *testing.T) {
	needNbdkit(t)
	base := callbackCount()
	h := newHandle(t)
	if err := h.AddMetaContext("base:allocation"); err != nil {
		t.Fatal(err)
	}
	if err := h.ConnectCommand([]string{"nbdkit", "-s",
		"--exit-with-parent", "memory", "1M"}); err != nil {
		t.Fatal(err)
	}

	err := h.PreadStructured(make([]byte, 512), 0,
		func(sub []byte, offset uint64, status uint, e *int) int {
			*e = int(syscall.EPERM)
			return -1
		}, nil)
	wantErrno(t, "chunk callback", err, syscall.EPERM)

	err = h.BlockStatus64(512, 0,
		func(ctx string, offset uint64, ents []LibnbdExtent, e *int) int {
			*e = int(syscall.ENOMEM)
			return -1
		}, nil)
	wantErrno(t, "extent64 callback", err, syscall.ENOMEM)

	buf := MakeAioBuffer(512)
	defer buf.Free()
	cookie, err := h.AioPread(buf, 0, &AioPreadOptargs{
		CompletionCallbackSet: true,
		CompletionCallback: func(e *int) int {
			*e = int(syscall.EIO)
			return -1
		}})
	if err != nil {
		t.Fatal(err)
	}
	for callbackCount() != base {
		if _, err := h.Poll(-1); err != nil {
			t.Fatal(err)
		}
	}
	_, err = h.AioCommandCompleted(cookie)
	wantErrno(t, "completion callback", err, syscall.EIO)
	if callbackCount() != base {
		t.Errorf("registry holds %d, want %d", callbackCount(), base)
	}
}
