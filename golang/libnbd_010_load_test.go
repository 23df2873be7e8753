// The package links, and to the library of this build tree, not the
// system's libnbd.so.0.
package libnbd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func Test010Load(t *testing.T) {
	h := newHandle(t)
	if p, _ := h.GetPackageName(); *p != "libnbd" {
		t.Fatalf("package name %q", *p)
	}
	built := os.Getenv("LIBNBD_BUILT_LIBRARY") /* set by ../run */
	if built == "" {
		t.Skip("not run through ../run: LIBNBD_BUILT_LIBRARY is not set")
	}
	want, err := filepath.EvalSymlinks(built)
	if err != nil {
		t.Fatalf("%s: %s", built, err)
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(maps), "\n") {
		f := strings.Fields(line)
		if len(f) == 6 && strings.Contains(f[5], "libnbd.so") &&
			f[5] != want {
			t.Fatalf("mapped %s, not the build's %s", f[5], want)
		}
	}
	if !strings.Contains(string(maps), want) {
		t.Fatalf("the build's %s is not mapped", want)
	}
}
