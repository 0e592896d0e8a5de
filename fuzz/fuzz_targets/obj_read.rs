//! Reads arbitrary bytes as OBJ on 1 and 3 threads: never a panic, the same
//! result whatever the thread count, and every mesh read is valid (its indices
//! in range), so that it can be written again.
//! `cargo +nightly fuzz run obj_read` in this folder.

#![no_main]

use libfuzzer_sys::fuzz_target;
use oxport::obj::{ReadOptions, read_bytes};

fuzz_target!(|data: &[u8]| {
    let one = read_bytes(
        data,
        &ReadOptions {
            threads: Some(1),
            strict: false,
        },
    );
    let three = read_bytes(
        data,
        &ReadOptions {
            threads: Some(3),
            strict: false,
        },
    );
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
        _ => panic!("1 and 3 threads disagree: {one:?} / {three:?}"),
    }
});
