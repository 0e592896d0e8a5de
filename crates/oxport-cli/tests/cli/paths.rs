//! Paths the tool takes as they are: longer than Windows' 260 characters,
//! and (on Unix) names that are not UTF-8.

use std::ffi::OsStr;
use std::path::Path;

use crate::common::command;

/// Runs the tool on `args`, paths as they are; the test fails with its
/// message unless it succeeds.
fn succeeds(args: &[&OsStr]) {
    let output = command().args(args).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Packs `input` into `archive` and unpacks it beside, through the tool;
/// the bytes come back.
fn round_trip(input: &Path, archive: &Path) {
    let data: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(input, &data).unwrap();
    let zst = OsStr::new("zst");
    succeeds(&[
        zst,
        OsStr::new("pack"),
        input.as_os_str(),
        archive.as_os_str(),
    ]);
    let back = archive.with_extension("back");
    succeeds(&[
        zst,
        OsStr::new("unpack"),
        archive.as_os_str(),
        back.as_os_str(),
    ]);
    assert!(std::fs::read(&back).unwrap() == data);
}

#[test]
fn a_path_longer_than_260_characters() {
    let dir = tempfile::tempdir().unwrap();
    let mut deep = dir.path().to_path_buf();
    while deep.as_os_str().len() < 300 {
        deep.push("a-folder-with-a-rather-long-name-0123456789");
    }
    std::fs::create_dir_all(&deep).unwrap();
    round_trip(&deep.join("data.bin"), &deep.join("data.bin.zst"));
}

#[test]
#[cfg(unix)]
fn a_name_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = OsStr::from_bytes(b"caf\xe9-\xff.bin");
    let input = dir.path().join(name);
    round_trip(
        &input,
        &dir.path().join(OsStr::from_bytes(b"caf\xe9-\xff.bin.zst")),
    );
    // Several files into a folder: each archive takes its file's name, byte
    // for byte.
    let other = dir.path().join(OsStr::from_bytes(b"\xfe.obj"));
    std::fs::write(&other, b"v 0 0 0\n").unwrap();
    let out = dir.path().join("out");
    succeeds(&[
        OsStr::new("zst"),
        OsStr::new("pack"),
        input.as_os_str(),
        other.as_os_str(),
        out.as_os_str(),
    ]);
    for name in [&b"caf\xe9-\xff.bin.zst"[..], b"\xfe.obj.zst"] {
        assert!(out.join(OsStr::from_bytes(name)).is_file());
    }
}
