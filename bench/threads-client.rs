// bench/threads-client.rs: THREADS Rust threads share one
// libnbd::Handle (it is Sync), each making READS blocking 4 KiB pread
// calls, for bench/bindings-threads.sh (which builds it against rust/).
// Usage: threads-client SOCKET THREADS READS
// Prints: "<reads/s> <client CPU seconds per 1000 reads> <libnbd
// version>", the first two from the first call to the last return.
use std::env;
use std::process;
use std::thread;
use std::time::Instant;

fn cpu_seconds() -> f64 {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(ru.ru_utime) + secs(ru.ru_stime)
}

fn main() {
    let args: Vec<String> = env::args().collect();
    if args.len() != 4 {
        process::exit(2);
    }
    let threads: u64 = args[2].parse().unwrap();
    let reads: u64 = args[3].parse().unwrap();
    let h = libnbd::Handle::new().unwrap();
    h.connect_unix(&args[1]).unwrap_or_else(|e| {
        eprintln!("{}", e);
        process::exit(1)
    });

    let (c0, t0) = (cpu_seconds(), Instant::now());
    thread::scope(|s| {
        for t in 0..threads {
            let h = &h;
            s.spawn(move || {
                let mut buf = [0u8; 4096];
                for i in 0..reads {
                    let offset = ((t * reads + i) % 256) * 4096;
                    if let Err(e) = h.pread(&mut buf, offset, None) {
                        eprintln!("{}", e);
                        process::exit(1);
                    }
                }
            });
        }
    });
    let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    let n = (threads * reads) as f64;
    let version = String::from_utf8_lossy(h.get_version());
    println!("{:.0} {:.4} {}", n / wall, cpu * 1000.0 / n, version);
}
