//! Reads arbitrary bytes as MTL: never a panic; what is read can be written,
//! and what is written reads back with the same texture maps.
//! `cargo +nightly fuzz run mtl_read` in `fuzz/`.

/// One input: the checks the module describes (a panic is a failure).
pub fn run(data: &[u8]) {
    if let Ok(library) = oxport::obj::parse_mtl(data) {
        let mut out = Vec::new();
        // Names and values with line breaks cannot come out of a line-based
        // parse; writing refuses only those.
        let dialect = oxport::obj::Dialect::default();
        oxport::obj::write_mtl_to(&mut out, &library.materials, &library.header, dialect)
            .expect("what is read can be written");
        let again = oxport::obj::parse_mtl(&out).expect("what is written reads back");
        let maps = |library: &oxport::obj::MaterialLibrary| -> Vec<(String, String)> {
            let maps = library.materials.iter().flat_map(|m| &m.maps);
            maps.map(|map| (map.key.clone(), map.path.clone()))
                .collect()
        };
        assert_eq!(maps(&library), maps(&again));
    }
}
