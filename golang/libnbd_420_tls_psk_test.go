// TLS with a pre-shared key: required, negotiated, and data moves.
package libnbd

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
)

func Test420TlsPsk(t *testing.T) {
	needNbdkit(t)
	if _, err := exec.LookPath("psktool"); err != nil {
		t.Skip("psktool (gnutls-bin) not found in $PATH")
	}
	keys := filepath.Join(t.TempDir(), "keys.psk")
	if out, err := exec.Command("psktool", "-u", "alice", "-p",
		keys).CombinedOutput(); err != nil {
		t.Fatalf("psktool: %s: %s", err, out)
	}
	h := newHandle(t)
	if ok, err := h.SupportsTls(); err != nil || !ok {
		t.Fatalf("SupportsTls: %v %v", ok, err)
	}
	for _, err := range []error{h.SetTls(TLS_REQUIRE),
		h.SetTlsPskFile(keys), h.SetTlsUsername("alice")} {
		if err != nil {
			t.Fatalf("TLS setting: %s", err)
		}
	}
	err := h.ConnectCommand([]string{"nbdkit", "-s", "--exit-with-parent",
		"--tls=require", "--tls-psk=" + keys, "memory", "1M"})
	if err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}
	if tls, err := h.GetTlsNegotiated(); err != nil || !tls {
		t.Fatalf("GetTlsNegotiated: %v %v", tls, err)
	}
	data := bytes.Repeat([]byte("go-tls"), 1000)
	if err := h.Pwrite(data, 512, nil); err != nil {
		t.Fatalf("Pwrite: %s", err)
	}
	back := make([]byte, len(data))
	if err := h.Pread(back, 512, nil); err != nil {
		t.Fatalf("Pread: %s", err)
	}
	if !bytes.Equal(back, data) {
		t.Fatalf("read back differs")
	}
}
