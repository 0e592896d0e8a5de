//! Reads arbitrary bytes as OBJ on 1 and 3 threads: never a panic, the same
//! result whatever the thread count, and every mesh read is valid (its indices
//! in range), so that it can be written again. A quarter of the inputs are
//! also read repeated to 160 KB, so that they are cut into several blocks
//! (objects, relative indices and errors across block boundaries).
//! `cargo +nightly fuzz run obj_read` in this folder.

#![no_main]

use libfuzzer_sys::fuzz_target;
use oxport::obj::{ReadOptions, read_bytes};

fn check(data: &[u8]) {
    let read = |threads| {
        read_bytes(
            data,
            &ReadOptions {
                threads: Some(threads),
                strict: false,
            },
        )
    };
    let (one, three) = (read(1), read(3));
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
}

fuzz_target!(|data: &[u8]| {
    check(data);
    if !data.is_empty() && data[0] % 4 == 0 {
        let copies = (160 * 1024) / data.len() + 1;
        check(&data.repeat(copies));
    }
});
