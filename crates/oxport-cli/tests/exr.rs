//! `oxport exr`: info describes every attribute; convert recompresses one
//! file or many into a directory with the pixels unchanged, reports a bad
//! file on its own line, converts the rest, and fails at the end.

mod common;

use common::oxport;

use oxport::exr::{self, Channel, Compression, Header, PixelType, ReadOptions, WriteOptions};

fn sample(path: &std::path::Path, compression: Compression) -> Vec<Vec<u8>> {
    let (width, height) = (61u32, 45u32);
    let header = Header::new(
        width,
        height,
        vec![
            Channel::new("R", PixelType::Half),
            Channel::new("Z", PixelType::Float),
        ],
        compression,
    )
    .unwrap();
    let n = (width * height) as usize;
    let r: Vec<u8> = (0..n)
        .flat_map(|i| ((i % 97) as u16 * 64).to_le_bytes())
        .collect();
    let z: Vec<u8> = (0..n)
        .flat_map(|i| (i as f32 * 0.5).to_le_bytes())
        .collect();
    exr::write(path, &header, &[&r, &z], &WriteOptions::default()).unwrap();
    vec![r, z]
}

#[test]
fn info_and_convert() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let planes = sample(&path("a.exr"), Compression::Zip);
    sample(&path("b.exr"), Compression::Rle);

    let (ok, out, err) = oxport(&["exr", "info", path("a.exr").to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("compression (compression) zip"), "{out}");
    assert!(out.contains("R (half), Z (float)"), "{out}");
    assert!(
        out.contains("61 × 45 pixels, 2 channels, scanlineimage in 3 chunks of 16 lines"),
        "{out}"
    );
    // A tiled file with mipmap levels, from OpenEXR's sample images.
    let levels = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../oxport/tests/data/valid/openexr-images/ColorCodedLevels.exr"
    );
    let (ok, out, err) = oxport(&["exr", "info", levels]);
    assert!(ok, "{err}");
    assert!(
        out.contains("512 × 512 pixels, 4 channels, tiledimage of 64×64 tiles in 10 levels"),
        "{out}"
    );
    assert!(out.contains("(9, 9) 1×1"), "{out}");

    // One file to a file.
    let (ok, _, err) = oxport(&[
        "exr",
        "convert",
        path("a.exr").to_str().unwrap(),
        path("a_zstd.exr").to_str().unwrap(),
        "-c",
        "zstd",
        "-l",
        "9",
    ]);
    assert!(ok, "{err}");
    let image = exr::read(&path("a_zstd.exr"), &ReadOptions::default()).unwrap();
    assert_eq!(image.header.compression().unwrap(), Compression::Zstd);
    assert_eq!(image.planes, planes);

    // Many files into a directory, one of them not an image: reported, the
    // others converted, the command fails.
    std::fs::write(path("bad.exr"), b"not an image").unwrap();
    let (ok, _, err) = oxport(&[
        "exr",
        "convert",
        path("a.exr").to_str().unwrap(),
        path("bad.exr").to_str().unwrap(),
        path("b.exr").to_str().unwrap(),
        path("out").to_str().unwrap(),
        "--compression",
        "zips",
    ]);
    assert!(!ok);
    assert!(
        err.contains("bad.exr: corrupt input at byte 0: not an OpenEXR file"),
        "{err}"
    );
    assert!(err.contains("2 of 3 files to zips"), "{err}");
    assert!(err.contains("1 of 3 files failed"), "{err}");
    for name in ["a.exr", "b.exr"] {
        let image = exr::read(&path("out").join(name), &ReadOptions::default()).unwrap();
        assert_eq!(image.header.compression().unwrap(), Compression::Zips);
        assert_eq!(image.planes, planes);
    }
    assert!(!path("out").join("bad.exr").exists());

    let (ok, _, err) = oxport(&["exr", "convert", "x.exr", "y.exr", "-c", "piz"]);
    assert!(!ok);
    assert!(err.contains("oxport does not write piz"), "{err}");
}
