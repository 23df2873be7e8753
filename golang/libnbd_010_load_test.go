// The package links, and to the library of this build tree.
package libnbd

import "testing"

func Test010Load(t *testing.T) {
	h := newHandle(t)
	v, err := h.GetVersion()
	if err != nil {
		t.Fatalf("GetVersion: %s", err)
	}
	/* The system's libnbd is older: this is the build's own. */
	if *v != "1.22.0" {
		t.Fatalf("loaded libnbd %s, expected the build's 1.22.0", *v)
	}
	p, _ := h.GetPackageName()
	if *p != "libnbd" {
		t.Fatalf("package name %q", *p)
	}
}
