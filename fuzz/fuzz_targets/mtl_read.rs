//! Reads arbitrary bytes as MTL: never a panic; what is read can be written.
//! `cargo +nightly fuzz run mtl_read` in this folder.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(library) = oxport::obj::parse_mtl(data) {
        let mut out = Vec::new();
        // Names and values with line breaks cannot come out of a line-based
        // parse; writing refuses only those.
        oxport::obj::write_mtl_to(&mut out, &library.materials, &library.header)
            .expect("what is read can be written");
    }
});
