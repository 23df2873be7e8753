//! Print the size of an NBD export.
//! Usage: get-size URI   (e.g. nbd+unix:///?socket=/tmp/sock)
fn main() -> libnbd::Result<()> {
    let uri = std::env::args().nth(1).expect("usage: get-size URI");
    let nbd = libnbd::Handle::new()?;
    nbd.connect_uri(uri)?;
    println!("{}", nbd.get_size()?);
    Ok(())
}
