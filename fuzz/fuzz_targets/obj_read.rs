//! Reads arbitrary bytes as OBJ on one thread and on rayon's pool (one thread
//! per core, started once): never a panic, the same
//! result whatever the thread count, and every mesh read is valid (its indices
//! in range), so that it can be written again. Built for fuzzing, the reader
//! cuts its input into blocks of 256 bytes, so that objects, relative indices
//! and errors cross block boundaries.
//! `cargo +nightly fuzz run obj_read -- -detect_leaks=0` in this folder (the
//! parsing threads' allocations outlive a run and would make every run scan for
//! leaks).

#![no_main]

use libfuzzer_sys::fuzz_target;
use oxport::obj::{ReadOptions, read_bytes};

fn check(data: &[u8]) {
    let read = |threads| {
        read_bytes(
            data,
            &ReadOptions {
                threads,
                ..ReadOptions::default()
            },
        )
    };
    let (one, three) = (read(Some(1)), read(None));
    match (&one, &three) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b);
            for mesh in &a.meshes {
                mesh.validate().expect("a mesh read must be valid");
            }
            let mut out = Vec::new();
            oxport::obj::write_to(&mut out, &a.meshes, &oxport::obj::WriteOptions::default())
                .expect("what is read can be written");
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("1 thread and the pool disagree: {one:?} / {three:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
});
