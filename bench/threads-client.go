// bench/threads-client.go: THREADS goroutines share one libnbd.Libnbd
// handle, each making READS blocking 4 KiB Pread calls, for
// bench/bindings-threads.sh (which builds it against golang/).  A cgo
// call holds no Go lock, so how many reads are in flight at once is the
// library's doing.
// Usage: threads-client SOCKET THREADS READS
// Prints: "<reads/s> <client CPU seconds per 1000 reads> <libnbd
// version>", the first two from the first call to the last return.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"libguestfs.org/libnbd"
)

func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func main() {
	if len(os.Args) != 4 {
		os.Exit(2)
	}
	threads, _ := strconv.Atoi(os.Args[2])
	reads, _ := strconv.Atoi(os.Args[3])
	h, err := libnbd.Create()
	if err != nil {
		fail(err)
	}
	defer h.Close()
	if err = h.ConnectUnix(os.Args[1]); err != nil {
		fail(err)
	}

	var wg sync.WaitGroup
	c0, t0 := cpuSeconds(), time.Now()
	for t := 0; t < threads; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			buf := make([]byte, 4096)
			for i := 0; i < reads; i++ {
				off := uint64((t*reads+i)%256) * 4096
				if err := h.Pread(buf, off, nil); err != nil {
					fail(err)
				}
			}
		}(t)
	}
	wg.Wait()
	wall, cpu := time.Since(t0).Seconds(), cpuSeconds()-c0
	n := float64(threads * reads)
	version, err := h.GetVersion()
	if err != nil {
		fail(err)
	}
	fmt.Printf("%.0f %.4f %s\n", n/wall, cpu*1000/n, *version)
}
