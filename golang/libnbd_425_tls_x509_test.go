// TLS with X.509 certificates made at test time with certtool: the
// right CA works against nbdkit --tls=require, a wrong CA fails.
package libnbd

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// certtool runs certtool with args, its template (if any) in file tmpl.
func certtool(t *testing.T, tmpl, template string, args ...string) []byte {
	t.Helper()
	if tmpl != "" {
		if err := os.WriteFile(tmpl, []byte(template), 0600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--template", tmpl)
	}
	out, err := exec.Command("certtool", args...).Output()
	if err != nil {
		t.Fatalf("certtool %v: %s", args, err)
	}
	return out
}

// writeFile writes data to dir/name.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0600); err != nil {
		t.Fatal(err)
	}
	return path
}

// makeCA makes a CA key and self-signed certificate in dir.
func makeCA(t *testing.T, dir, cn string) (key, cert string) {
	t.Helper()
	key = writeFile(t, dir, "ca-key.pem", certtool(t, "", "",
		"--generate-privkey", "--key-type=ecdsa"))
	cert = writeFile(t, dir, "ca-cert.pem", certtool(t,
		filepath.Join(dir, "ca.info"),
		"cn = "+cn+"\nca\ncert_signing_key\nexpiration_days = 2\n",
		"--generate-self-signed", "--load-privkey", key))
	return key, cert
}

// makeCert makes dir/NAME-{key,cert}.pem signed by the CA, and puts
// the CA's certificate beside them.
func makeCert(t *testing.T, dir, name, template, caKey, caCert string) {
	t.Helper()
	if err := os.Mkdir(dir, 0700); err != nil {
		t.Fatal(err)
	}
	key := writeFile(t, dir, name+"-key.pem", certtool(t, "", "",
		"--generate-privkey", "--key-type=ecdsa"))
	writeFile(t, dir, name+"-cert.pem", certtool(t,
		filepath.Join(dir, name+".info"), template,
		"--generate-certificate", "--load-ca-certificate", caCert,
		"--load-ca-privkey", caKey, "--load-privkey", key))
	ca, err := os.ReadFile(caCert)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "ca-cert.pem", ca)
}

// makePKI returns directories for nbdkit (server), for the client
// (its certificate and the CA), and for the same client trusting only
// some other CA.
func makePKI(t *testing.T) (server, client, other string) {
	t.Helper()
	if _, err := exec.LookPath("certtool"); err != nil {
		t.Skip("certtool (gnutls-bin) not found in $PATH")
	}
	d := t.TempDir()
	ca := filepath.Join(d, "ca")
	other = filepath.Join(d, "other")
	for _, dir := range []string{ca, other} {
		if err := os.Mkdir(dir, 0700); err != nil {
			t.Fatal(err)
		}
	}
	caKey, caCert := makeCA(t, ca, "libnbd test CA")
	server = filepath.Join(d, "server")
	makeCert(t, server, "server", "organization = libnbd test\n"+
		"cn = localhost\ndns_name = localhost\ntls_www_server\n"+
		"encryption_key\nsigning_key\nexpiration_days = 2\n",
		caKey, caCert)
	client = filepath.Join(d, "client")
	makeCert(t, client, "client", "organization = libnbd test\n"+
		"cn = client\ntls_www_client\nencryption_key\nsigning_key\n"+
		"expiration_days = 2\n", caKey, caCert)
	otherKey, _ := makeCA(t, other, "some other CA")
	os.Remove(otherKey)
	for _, f := range []string{"client-cert.pem", "client-key.pem"} {
		b, err := os.ReadFile(filepath.Join(client, f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, other, f, b)
	}
	return server, client, other
}

// tlsHandle is a handle requiring TLS with the certificates in dir,
// checking that the server is localhost.
func tlsHandle(t *testing.T, dir string) *Libnbd {
	t.Helper()
	h := newHandle(t)
	for _, err := range []error{h.SetTls(TLS_REQUIRE),
		h.SetTlsCertificates(dir), h.SetTlsHostname("localhost")} {
		if err != nil {
			t.Fatalf("TLS setting: %s", err)
		}
	}
	return h
}

func tlsServer(dir string) []string {
	return []string{"nbdkit", "-s", "--exit-with-parent", "--tls=require",
		"--tls-certificates=" + dir, "--tls-verify-peer", "memory", "1M"}
}

func Test425TlsX509(t *testing.T) {
	needNbdkit(t)
	server, client, _ := makePKI(t)
	h := tlsHandle(t, client)
	if err := h.ConnectCommand(tlsServer(server)); err != nil {
		t.Fatalf("ConnectCommand: %s", err)
	}
	if tls, err := h.GetTlsNegotiated(); err != nil || !tls {
		t.Fatalf("GetTlsNegotiated: %v %v", tls, err)
	}
	data := bytes.Repeat([]byte("x509"), 2048)
	if err := h.Pwrite(data, 4096, nil); err != nil {
		t.Fatalf("Pwrite: %s", err)
	}
	back := make([]byte, len(data))
	if err := h.Pread(back, 4096, nil); err != nil {
		t.Fatalf("Pread: %s", err)
	}
	if !bytes.Equal(back, data) {
		t.Fatalf("read back differs")
	}
}

func Test425TlsX509WrongCA(t *testing.T) {
	needNbdkit(t)
	server, _, other := makePKI(t)
	h := tlsHandle(t, other)
	err := h.ConnectCommand(tlsServer(server))
	var e *LibnbdError
	if !errors.As(err, &e) {
		t.Fatalf("ConnectCommand with a wrong CA: %v", err)
	}
	const want = "nbd_connect_command: TLS handshake: server " +
		"certificate: The certificate is NOT trusted. The certificate " +
		"issuer is unknown.: Protocol error"
	if e.Op != "connect_command" || e.Errmsg != want ||
		e.Errno != syscall.EPROTO {
		t.Fatalf("ConnectCommand with a wrong CA: got %q %q %d, "+
			"want %q %q EPROTO", e.Op, e.Errmsg, e.Errno,
			"connect_command", want)
	}
	if tls, _ := h.GetTlsNegotiated(); tls {
		t.Fatalf("TLS negotiated with a wrong CA")
	}
}
