//! Paths the tool takes as they are: longer than Windows' 260 characters,
//! and (on Unix) names that are not UTF-8.

use std::ffi::OsStr;
use std::path::Path;

use crate::common::command;

/// Packs `input` into `archive` and unpacks it beside, through the tool;
/// the bytes come back.
fn round_trip(input: &Path, archive: &Path) {
    let data: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(input, &data).unwrap();
    let packed = command()
        .args([OsStr::new("zst"), OsStr::new("pack")])
        .arg(input)
        .arg(archive)
        .output()
        .unwrap();
    assert!(
        packed.status.success(),
        "{}",
        String::from_utf8_lossy(&packed.stderr)
    );
    let back = archive.with_extension("back");
    let unpacked = command()
        .args(["zst", "unpack"])
        .arg(archive)
        .arg(&back)
        .output()
        .unwrap();
    assert!(
        unpacked.status.success(),
        "{}",
        String::from_utf8_lossy(&unpacked.stderr)
    );
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
    let packed = command()
        .args(["zst", "pack"])
        .arg(&input)
        .arg(&other)
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        packed.status.success(),
        "{}",
        String::from_utf8_lossy(&packed.stderr)
    );
    for name in [&b"caf\xe9-\xff.bin.zst"[..], b"\xfe.obj.zst"] {
        assert!(out.join(OsStr::from_bytes(name)).is_file());
    }
}
