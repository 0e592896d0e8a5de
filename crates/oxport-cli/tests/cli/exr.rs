//! `oxport exr`: info describes every attribute; convert recompresses one
//! file or many into a directory with the pixels unchanged, reports a bad
//! file on its own line, converts the rest, and fails at the end.

use crate::common::oxport;

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

    // Two inputs of one name would write one output: refused before anything
    // is written (oxport::batch::targets, as oxport.dask refuses them).
    std::fs::create_dir(path("twin")).unwrap();
    std::fs::copy(path("b.exr"), path("twin").join("a.exr")).unwrap();
    let (ok, _, err) = oxport(&[
        "exr",
        "convert",
        path("a.exr").to_str().unwrap(),
        path("twin").join("a.exr").to_str().unwrap(),
        path("twins").to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("would both write"), "{err}");
    assert!(!path("twins").exists());

    let (ok, _, err) = oxport(&["exr", "convert", "x.exr", "y.exr", "-c", "lj2k"]);
    assert!(!ok);
    assert!(err.contains("oxport does not write lj2k"), "{err}");
}

#[test]
fn convert_keeps_levels_or_stores_parts_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let planes = sample(&path("a.exr"), Compression::Zip);
    let levels_of = |name: &str| {
        let reader = exr::Reader::open(&path(name)).unwrap();
        let part = &reader.parts()[0];
        (part.storage().type_name(), part.levels().len())
    };
    let run = |args: &[&str]| {
        let (ok, _, err) = oxport(args);
        assert!(ok, "{err}");
    };
    let a = path("a.exr");
    let a = a.to_str().unwrap();
    let mip = path("mip.exr");
    run(&[
        "exr",
        "convert",
        a,
        mip.to_str().unwrap(),
        "--tiles",
        "16x8",
        "--levels",
        "mipmap",
    ]);
    // 61×45 halves to 1×1 in 6 levels (rounded down).
    assert_eq!(levels_of("mip.exr"), ("tiledimage", 6));
    // Kept: tiles and levels as they were.
    let kept = path("kept.exr");
    run(&[
        "exr",
        "convert",
        mip.to_str().unwrap(),
        kept.to_str().unwrap(),
        "-c",
        "rle",
    ]);
    assert_eq!(levels_of("kept.exr"), ("tiledimage", 6));
    let flat = path("flat.exr");
    run(&[
        "exr",
        "convert",
        kept.to_str().unwrap(),
        flat.to_str().unwrap(),
        "--scanlines",
    ]);
    assert_eq!(levels_of("flat.exr"), ("scanlineimage", 1));
    let image = exr::read(&flat, &ReadOptions::default()).unwrap();
    assert_eq!(image.planes, planes);
    let (ok, _, err) = oxport(&["exr", "convert", a, "x.exr", "--tiles", "16"]);
    assert!(!ok && err.contains("WIDTHxHEIGHT"), "{err}");
    let (ok, _, err) = oxport(&["exr", "convert", a, "x.exr", "--levels", "mipmap"]);
    assert!(!ok && err.contains("--tiles"), "{err}");
}

#[test]
fn the_lab_measures_every_filter_and_codec_and_writes_its_table_and_chart() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("a.exr");
    sample(&input, Compression::Zip);
    let out = dir.path().join("lab");
    let (ok, table, err) = oxport(&[
        "exr",
        "lab",
        input.to_str().unwrap(),
        "--rounds",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    // One row per filter with each byte codec, HTJ2K (no filter), and ZFP
    // (no filter) when built with it.
    let rows = table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| filter") && !l.starts_with("| ---"))
        .count();
    let zfp = usize::from(cfg!(feature = "zfp"));
    assert_eq!(rows, 5 * 9 + 1 + zfp, "{table}");
    assert!(table.contains("| none | htj2k |"), "{table}");
    assert!(
        table.starts_with("1 image, 0.0 MB of pixels, chunks of 16 lines"),
        "{table}"
    );
    assert!(table.contains("| planes+delta | zstd 5 |"), "{table}");
    assert_eq!(std::fs::read_to_string(out.join("lab.md")).unwrap(), table);
    let png = std::fs::read(out.join("lab.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
}
