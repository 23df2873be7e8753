// aio_copy copies an NBD export to stdout with many asynchronous reads
// in flight, writing them out in order as they complete.
//
// Usage: aio_copy [-requests N] [-request-size N] [-pread-initialize] URI
package main

import (
	"flag"
	"fmt"
	"os"
	"syscall"

	"libguestfs.org/libnbd"
)

var (
	requestSize = flag.Uint("request-size", 256<<10, "bytes per read")
	requests    = flag.Uint("requests", 16, "reads in flight")
	initialize  = flag.Bool("pread-initialize", false,
		"let libnbd zero each read buffer first (its default)")
)

// The largest read libnbd sends.
const maxRequestSize = 64 << 20

// A read in flight; done is set by its completion callback.
type command struct {
	buf  libnbd.AioBuffer
	size uint64
	done bool
}

func main() {
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: aio_copy [flags] URI > FILE")
		os.Exit(2)
	}
	if *requests < 1 || *requestSize < 1 || *requestSize > maxRequestSize {
		fmt.Fprintf(os.Stderr, "aio_copy: -requests must be at least 1 "+
			"and -request-size from 1 to %d\n", maxRequestSize)
		os.Exit(2)
	}
	h, err := libnbd.Create()
	check(err)
	defer h.Close()
	check(h.SetPreadInitialize(*initialize))
	check(h.ConnectUri(flag.Arg(0)))
	size, err := h.GetSize()
	check(err)
	copyExport(h, size)
	check(h.Shutdown(nil))
}

// copyExport keeps up to *requests reads queued, in offset order; the
// queue's head is written as soon as it has completed.
func copyExport(h *libnbd.Libnbd, size uint64) {
	var queue []*command
	var free []libnbd.AioBuffer
	for i := uint(0); i < *requests; i++ {
		free = append(free, libnbd.MakeAioBuffer(*requestSize))
	}
	off := uint64(0)
	for off < size || len(queue) > 0 {
		for off < size && len(free) > 0 {
			c := &command{buf: free[len(free)-1], size: size - off}
			free = free[:len(free)-1]
			if c.size > uint64(*requestSize) {
				c.size = uint64(*requestSize)
			}
			issue(h, c, off)
			queue = append(queue, c)
			off += c.size
		}
		for len(queue) > 0 && !queue[0].done {
			_, err := h.Poll(-1)
			check(err)
		}
		for len(queue) > 0 && queue[0].done {
			c := queue[0]
			queue = queue[1:]
			_, err := os.Stdout.Write(c.buf.Slice()[:c.size])
			check(err)
			free = append(free, c.buf)
		}
	}
	for i := range free {
		free[i].Free()
	}
}

func issue(h *libnbd.Libnbd, c *command, off uint64) {
	buf := libnbd.AioBuffer{P: c.buf.P, Size: uint(c.size)}
	_, err := h.AioPread(buf, off, &libnbd.AioPreadOptargs{
		CompletionCallbackSet: true,
		CompletionCallback: func(e *int) int {
			if *e != 0 {
				check(fmt.Errorf("read at %d: %s", off,
					syscall.Errno(*e)))
			}
			c.done = true
			return 1 /* retire the command: nothing else waits on it */
		}})
	check(err)
}

func check(err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "aio_copy: %s\n", err)
		os.Exit(1)
	}
}
