// The debug callback receives the library's messages, with context.
package libnbd

import (
	"strings"
	"testing"
)

func Test600DebugCallback(t *testing.T) {
	needNbdkit(t)
	h := newHandle(t)
	var msgs []string
	err := h.SetDebugCallback(func(context string, msg string) int {
		msgs = append(msgs, context+": "+msg)
		return 0
	})
	if err != nil {
		t.Fatalf("SetDebugCallback: %s", err)
	}
	if err := h.SetDebug(true); err != nil {
		t.Fatal(err)
	}
	err = h.ConnectCommand([]string{"nbdkit", "-s", "--exit-with-parent",
		"null"})
	if err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}
	if len(msgs) == 0 || !strings.HasPrefix(msgs[0], "nbd_") {
		t.Fatalf("debug messages: %q", msgs)
	}
	if err := h.ClearDebugCallback(); err != nil {
		t.Fatalf("ClearDebugCallback: %s", err)
	}
	n := len(msgs)
	h.SetDebug(false)
	h.GetSize()
	if len(msgs) != n {
		t.Fatalf("callback called after ClearDebugCallback")
	}
}
