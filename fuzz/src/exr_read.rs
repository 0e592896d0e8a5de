//! Reads arbitrary bytes as an OpenEXR file: never a panic, never an
//! allocation past what the file could hold; one thread and two agree;
//! every part and level of a file that opens reads or fails cleanly (the
//! multi-part, tiled and deep offset tables and chunks, every decoder); an image that reads
//! is written again (read-only methods with ZIP) and reads back the same
//! (pixels and header).
//! `cargo +nightly fuzz run exr_read` in `fuzz/` (seeds:
//! `seeds/exr_read/`: files of every method oxport reads, from OpenEXR).

use oxport::exr::{
    self, AttributeValue, Compression, ReadOptions, Reader, Selection, WriteOptions,
};

/// Bounds the work per input: a tiny file may claim a large zstd window.
const LIMIT: usize = 64 << 20;

/// One input: the checks the module describes (a panic is a failure).
pub fn run(data: &[u8]) {
    if let Ok(reader) = Reader::new(data) {
        for (part, p) in reader.parts().iter().enumerate() {
            for level in p.levels().iter().take(4) {
                let selection = Selection {
                    part,
                    level: (level.x, level.y),
                    ..Selection::default()
                };
                if p.storage().is_deep() {
                    let one = reader.read_deep(&selection, &ReadOptions { threads: Some(1) });
                    let two = reader.read_deep(&selection, &ReadOptions { threads: Some(2) });
                    match (&one, &two) {
                        (Ok(a), Ok(b)) => {
                            assert_eq!(a, b);
                            let total: u64 = a.counts.iter().map(|&n| u64::from(n)).sum();
                            assert_eq!(*a.offsets().last().unwrap(), total);
                        }
                        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                        _ => panic!("one thread and two disagree: {one:?} / {two:?}"),
                    }
                    continue;
                }
                let Ok(shapes) = reader.shapes(&selection) else {
                    continue;
                };
                if shapes.iter().map(|s| s.bytes()).sum::<usize>() > LIMIT {
                    continue;
                }
                let one = reader.read_selection(&selection, &ReadOptions { threads: Some(1) });
                let two = reader.read_selection(&selection, &ReadOptions { threads: Some(2) });
                match (&one, &two) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b),
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                    _ => panic!("one thread and two disagree: {one:?} / {two:?}"),
                }
            }
        }
    }
    let one = exr::read_bytes(data, &ReadOptions { threads: Some(1) });
    let two = exr::read_bytes(data, &ReadOptions { threads: Some(2) });
    match (&one, &two) {
        // Debug text, not ==: attribute values may be NaN.
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}")),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("one thread and two disagree: {one:?} / {two:?}"),
    }
    let Ok(image) = one else { return };
    if image.planes.iter().map(Vec::len).sum::<usize>() > LIMIT {
        return;
    }
    let planes: Vec<&[u8]> = image.planes.iter().map(Vec::as_slice).collect();
    // Images of a method oxport does not write, or of a lossy one whose
    // second encoding would change the pixels (B44, DWA), are written again
    // with ZIP.
    let mut header = image.header.clone();
    let again = header.compression().is_ok_and(|m| {
        m.can_write()
            && !matches!(
                m,
                Compression::B44 | Compression::B44a | Compression::Dwaa | Compression::Dwab
            )
    });
    if !again {
        header.set("compression", AttributeValue::Compression(Compression::Zip));
    }
    // Headers that read but cannot be written (unsorted channel names) are
    // refused by the writer with an error, not a panic.
    if let Ok(file) = exr::write_bytes(
        &header,
        &planes,
        &WriteOptions {
            level: None,
            threads: Some(2),
        },
    ) {
        let back = exr::read_bytes(&file, &ReadOptions { threads: Some(2) })
            .expect("oxport reads what it wrote");
        assert_eq!(back.planes, image.planes);
        assert_eq!(format!("{:?}", back.header), format!("{header:?}"));
    }
}
