//! Print the first sector of an NBD export as hex, 16 bytes a line.
//! Usage: fetch-first-sector URI
fn main() -> libnbd::Result<()> {
    let uri = std::env::args()
        .nth(1)
        .expect("usage: fetch-first-sector URI");
    let nbd = libnbd::Handle::new()?;
    nbd.connect_uri(uri)?;
    let mut sector = [0u8; 512];
    nbd.pread(&mut sector, 0, None)?;
    for (i, line) in sector.chunks(16).enumerate() {
        let hex: Vec<String> = line.iter().map(|b| format!("{:02x}", b)).collect();
        println!("{:08x}: {}", i * 16, hex.join(" "));
    }
    Ok(())
}
