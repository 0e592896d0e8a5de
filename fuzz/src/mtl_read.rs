//! Reads arbitrary bytes as MTL: never a panic; what is read can be written.
//! `cargo +nightly fuzz run mtl_read` in `fuzz/`.

/// One input: the checks the module describes (a panic is a failure).
pub fn run(data: &[u8]) {
    if let Ok(library) = oxport::obj::parse_mtl(data) {
        let mut out = Vec::new();
        // Names and values with line breaks cannot come out of a line-based
        // parse; writing refuses only those.
        oxport::obj::write_mtl_to(&mut out, &library.materials, &library.header)
            .expect("what is read can be written");
    }
}
