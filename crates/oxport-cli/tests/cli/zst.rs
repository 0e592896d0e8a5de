//! `oxport zst`: pack and unpack through files and through stdin/stdout,
//! a range with `cat`, the description of `info`, and one-line errors for a
//! damaged archive that leave no output behind.

use crate::common::oxport_with as oxport;

#[test]
fn pack_unpack_cat_and_info() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let data: Vec<u8> = (0..3_000_000u32).map(|i| (i / 3 % 251) as u8).collect();
    std::fs::write(path("in"), &data).unwrap();

    let (ok, _, err) = oxport(
        &[
            "zst",
            "pack",
            &path("in"),
            &path("a.zst"),
            "-l",
            "-1",
            "--frame-size",
            "256K",
            "-T",
            "2",
        ],
        b"",
    );
    assert!(ok, "{err}");
    assert!(err.contains("12 frames"), "{err}");
    let (ok, _, err) = oxport(&["zst", "unpack", &path("a.zst"), &path("out")], b"");
    assert!(ok, "{err}");
    assert!(std::fs::read(path("out")).unwrap() == data);

    // stdin to stdout both ways.
    let (ok, packed, err) = oxport(&["zst", "pack", "-", "-", "--no-checksums"], &data);
    assert!(ok, "{err}");
    let (ok, unpacked, err) = oxport(&["zst", "unpack", "-", "-"], &packed);
    assert!(ok, "{err}");
    assert!(unpacked == data);

    let (ok, range, err) = oxport(
        &[
            "zst",
            "cat",
            &path("a.zst"),
            "--offset",
            "1000000",
            "--length",
            "4K",
        ],
        b"",
    );
    assert!(ok, "{err}");
    assert_eq!(range, &data[1_000_000..1_004_096]);

    let (ok, out, err) = oxport(&["zst", "info", &path("a.zst")], b"");
    assert!(ok, "{err}");
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("seek table, with checksums"), "{out}");
    assert!(out.contains("frames:        12"), "{out}");
    assert!(out.contains("decompressed:  3000000 bytes"), "{out}");

    // A damaged archive: one line naming what is wrong, no output left.
    let mut damaged = std::fs::read(path("a.zst")).unwrap();
    let at = damaged.len() - 30;
    damaged[at] ^= 0xFF;
    std::fs::write(path("bad.zst"), damaged).unwrap();
    let (ok, _, err) = oxport(&["zst", "unpack", &path("bad.zst"), &path("bad.out")], b"");
    assert!(!ok);
    let named = format!("oxport: {}: corrupt input at byte ", path("bad.zst"));
    assert!(err.starts_with(&named), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!dir.path().join("bad.out").exists());

    let (ok, _, err) = oxport(
        &[
            "zst",
            "pack",
            &path("in"),
            &path("x.zst"),
            "--frame-size",
            "2X",
        ],
        b"",
    );
    assert!(
        !ok && err.contains("a size is a number with K, M or G"),
        "{err}"
    );
    // The threads rule's message speaks to the command line too (no `None`).
    let (ok, _, err) = oxport(
        &["zst", "pack", &path("in"), &path("x.zst"), "-T", "0"],
        b"",
    );
    assert!(
        !ok && err.contains("threads is 0: give at least 1, or leave it unset"),
        "{err}"
    );
    assert!(!err.contains("None"), "{err}");
    assert!(!dir.path().join("x.zst").exists());
}

#[test]
fn several_files_pack_into_a_directory_and_a_bad_one_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let first: Vec<u8> = (0..700_000u32).map(|i| (i / 7 % 13) as u8).collect();
    std::fs::write(path("one.blend"), &first).unwrap();
    std::fs::write(path("two.blend"), b"small").unwrap();
    let (ok, _, err) = oxport(
        &[
            "zst",
            "pack",
            &path("one.blend"),
            &path("two.blend"),
            &path("packed"),
        ],
        b"",
    );
    assert!(ok, "{err}");
    assert!(err.contains("2 of 2 files packed"), "{err}");
    for (name, data) in [("one.blend", &first[..]), ("two.blend", b"small")] {
        let archive = path(&format!("packed/{name}.zst"));
        let (ok, out, err) = oxport(&["zst", "unpack", &archive, "-"], b"");
        assert!(ok && out == data, "{name}: {err}");
    }
    let (ok, _, err) = oxport(
        &[
            "zst",
            "pack",
            &path("missing"),
            &path("one.blend"),
            &path("packed"),
        ],
        b"",
    );
    assert!(!ok);
    assert!(
        err.contains("missing") && err.contains("1 of 2 files failed"),
        "{err}"
    );
    assert!(std::fs::exists(path("packed/one.blend.zst")).unwrap());
    let (ok, _, err) = oxport(
        &["zst", "pack", "-", &path("one.blend"), &path("packed")],
        b"",
    );
    assert!(!ok && err.contains("packs one file"), "{err}");
}

#[test]
fn a_scheduler_needs_the_python_package() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::write(&input, b"data").unwrap();
    let output = dir.path().join("out");
    let status = crate::common::command()
        .args(["zst", "pack", "--scheduler", "tcp://127.0.0.1:1"])
        .arg(&input)
        .arg(&output)
        .env("OXPORT_PYTHON", dir.path().join("no-python"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&status.stderr);
    assert!(!status.status.success());
    assert!(
        err.contains("OXPORT_PYTHON") && err.contains("oxport[dask]"),
        "{err}"
    );
}
