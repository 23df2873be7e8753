// OptSetMetaContext selects a context and reports it to its callback.
package libnbd

import "testing"

func Test250OptSetMeta(t *testing.T) {
	needNbdkit(t)
	h := newHandle(t)
	if err := h.SetOptMode(true); err != nil {
		t.Fatal(err)
	}
	err := h.ConnectCommand([]string{"nbdkit", "-s", "--exit-with-parent",
		"memory", "1M"})
	if err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}
	if err := h.AddMetaContext(CONTEXT_BASE_ALLOCATION); err != nil {
		t.Fatal(err)
	}
	var seen []string
	n, err := h.OptSetMetaContext(func(name string) int {
		seen = append(seen, name)
		return 0
	})
	if err != nil {
		t.Fatalf("OptSetMetaContext: %s", err)
	}
	if n != 1 || len(seen) != 1 || seen[0] != CONTEXT_BASE_ALLOCATION {
		t.Fatalf("OptSetMetaContext: %d %q", n, seen)
	}
	if err := h.OptGo(); err != nil {
		t.Fatalf("OptGo: %s", err)
	}
	can, err := h.CanMetaContext(CONTEXT_BASE_ALLOCATION)
	if err != nil || !can {
		t.Fatalf("CanMetaContext: %v %v", can, err)
	}
}
