// In opt mode, OptList reports each export through its callback.
package libnbd

import (
	"sort"
	"testing"
)

func Test220OptList(t *testing.T) {
	needNbdkit(t)
	h := newHandle(t)
	if err := h.SetOptMode(true); err != nil {
		t.Fatal(err)
	}
	err := h.ConnectCommand([]string{"nbdkit", "-s", "--exit-with-parent",
		"--filter=exportname", "memory", "1M",
		"exportname=a", "exportname=b", "exportname-list=explicit"})
	if err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}
	var names []string
	n, err := h.OptList(func(name string, desc string) int {
		names = append(names, name)
		return 0
	})
	if err != nil {
		t.Fatalf("OptList: %s", err)
	}
	sort.Strings(names)
	if n != 2 || len(names) != 2 || names[0] != "a" || names[1] != "b" {
		t.Fatalf("OptList gave %d: %v", n, names)
	}
	if err := h.OptAbort(); err != nil {
		t.Fatalf("OptAbort: %s", err)
	}
}
