// simple_copy copies an NBD export to stdout with synchronous reads.
//
// Usage: simple_copy [-buffer-size N] [-pread-initialize] URI > FILE
package main

import (
	"flag"
	"fmt"
	"os"

	"libguestfs.org/libnbd"
)

// The largest read libnbd sends.
const maxBufferSize = 64 << 20

var (
	bufferSize = flag.Uint("buffer-size", 2<<20, "bytes per read")
	initialize = flag.Bool("pread-initialize", false,
		"let libnbd zero each read buffer first (its default)")
)

func main() {
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: simple_copy [flags] URI > FILE")
		os.Exit(2)
	}
	if *bufferSize < 1 || *bufferSize > maxBufferSize {
		fmt.Fprintf(os.Stderr, "simple_copy: -buffer-size must be "+
			"from 1 to %d\n", maxBufferSize)
		os.Exit(2)
	}
	h, err := libnbd.Create()
	check(err)
	defer h.Close()
	/* Reads that succeed always fill the whole buffer, so zeroing it
	   first is wasted work. */
	check(h.SetPreadInitialize(*initialize))
	check(h.ConnectUri(flag.Arg(0)))
	size, err := h.GetSize()
	check(err)

	buf := make([]byte, *bufferSize)
	for off := uint64(0); off < size; off += uint64(len(buf)) {
		if size-off < uint64(len(buf)) {
			buf = buf[:size-off]
		}
		check(h.Pread(buf, off, nil))
		_, err := os.Stdout.Write(buf)
		check(err)
	}
	check(h.Shutdown(nil))
}

func check(err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "simple_copy: %s\n", err)
		os.Exit(1)
	}
}
