//! Every seed under `seeds/TARGET/` through its target's checks: the inputs
//! that found bugs, and files of every kind, stay covered by `cargo test`
//! (`make fuzz-build` runs this), with no fuzzer and no sanitizer needed.

use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("seeds")
        .join(target);
    let mut seeds: Vec<_> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty(), "{} has no seeds", folder.display());
    for seed in seeds {
        let data = std::fs::read(&seed).unwrap();
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "{}: the checks failed", seed.display());
    }
}

#[test]
fn every_target_with_seeds_has_a_replay() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds");
    let mut targets: Vec<String> = std::fs::read_dir(&seeds)
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    targets.sort();
    assert_eq!(targets, REPLAYED);
}

const REPLAYED: [&str; 4] = ["codec_decompress", "exr_chunk", "exr_read", "seekable_read"];

#[test]
fn codec_decompress() {
    replay("codec_decompress", oxport_fuzz::codec_decompress::run);
}

#[test]
fn exr_chunk() {
    replay("exr_chunk", oxport_fuzz::exr_chunk::run);
}

#[test]
fn exr_read() {
    replay("exr_read", oxport_fuzz::exr_read::run);
}

#[test]
fn seekable_read() {
    replay("seekable_read", oxport_fuzz::seekable_read::run);
}
