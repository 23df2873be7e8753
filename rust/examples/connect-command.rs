//! Run an NBD server as a subprocess talking over stdin/stdout, and
//! print the export's size and the first bytes.
//! Usage: connect-command nbdkit -s --exit-with-parent memory size=1M
fn main() -> libnbd::Result<()> {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    assert!(!argv.is_empty(), "usage: connect-command SERVER [ARGS...]");
    let nbd = libnbd::Handle::new()?;
    nbd.connect_command(&argv)?;
    println!("size: {}", nbd.get_size()?);
    let mut buf = [0u8; 16];
    nbd.pread(&mut buf, 0, None)?;
    println!("first bytes: {:02x?}", buf);
    nbd.shutdown(None)?;
    Ok(())
}
