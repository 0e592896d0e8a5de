//! Reads arbitrary bytes as a seekable archive: never a panic, never an
//! allocation beyond what the input can justify, and every way of reading
//! agrees: random reads at offsets taken from the input equal the same
//! range of the whole archive decompressed in order, on one thread and two,
//! and the one-pass decoder for pipes gives the same bytes.
//! `cargo +nightly fuzz run seekable_read` in `fuzz/` (seeds:
//! `corpus/seekable_read/`).

use oxport::seekable::{ReadOptions, Reader};

/// One input: the checks the module describes (a panic is a failure).
pub fn run(data: &[u8]) {
    let mut piped = Vec::new();
    let piped = oxport::seekable::unpack_stream(data, &mut piped, |_, _| {}).map(|_| piped);
    let open = |threads| {
        Reader::new(
            data.to_vec(),
            &ReadOptions {
                threads: Some(threads),
            },
        )
    };
    let (Ok(one), Ok(two)) = (open(1), open(2)) else {
        return;
    };
    let mut whole = Vec::new();
    let unpacked = one.unpack(&mut whole, |_, _| {});
    let mut again = Vec::new();
    let unpacked_again = two.unpack(&mut again, |_, _| {});
    assert_eq!(unpacked.is_ok(), unpacked_again.is_ok());
    let Ok(size) = unpacked else {
        return;
    };
    assert_eq!(whole, again);
    // A whole archive read by its index is one read in a single pass too.
    assert_eq!(piped.as_ref().ok(), Some(&whole));
    assert_eq!(size, whole.len() as u64);
    assert_eq!(one.find_size().unwrap(), size);
    // Offsets and lengths from the input's last bytes, in and past the data.
    for pair in data.rchunks(4).take(6) {
        let value = pair.iter().fold(0usize, |v, &b| v << 8 | usize::from(b));
        let offset = value % (whole.len() + 2);
        let len = value % 70_001;
        let mut buf = vec![0u8; len];
        let n = two
            .read_at(offset as u64, &mut buf)
            .expect("a whole archive reads at any offset");
        let end = (offset + len).min(whole.len()).max(offset.min(whole.len()));
        assert_eq!(&buf[..n], &whole[offset.min(whole.len())..end]);
    }
}
