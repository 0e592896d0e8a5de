//! The damaged OpenEXR images and seekable archives of `tests/data/invalid/`,
//! each named by what is wrong with it: every read fails with the error
//! `invalid/expected.txt` gives it (on one thread and on many), and never
//! panics or allocates by a size the file cannot back.

use std::path::Path;

use oxport::{exr, seekable};

use crate::obj_read::{data, lines_of, relative};

/// The error of reading `path` whole on `threads` (`reads` when it reads).
fn error_of(path: &Path, threads: Option<usize>) -> String {
    let name = path.to_string_lossy();
    if name.ends_with(".exr") {
        let options = exr::ReadOptions { threads };
        outcome(path, exr::read(path, &options).map(|_| ()))
    } else {
        let options = seekable::ReadOptions { threads };
        let read = seekable::Reader::open(path, &options)
            .and_then(|reader| reader.unpack(std::io::sink(), |_, _| {}));
        outcome(path, read.map(|_| ()))
    }
}

fn outcome(path: &Path, read: oxport::Result<()>) -> String {
    match read {
        Ok(()) => format!("{}: reads", path.display()),
        Err(error) => error.to_string(),
    }
}

#[test]
fn damaged_images_and_archives_fail_with_their_error() {
    let folder = data("invalid");
    let mut expected = lines_of(&folder.join("expected.txt"));
    expected.retain(|name, _| name.ends_with(".exr") || name.ends_with(".zst"));
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".exr") || n.ends_with(".zst"))
        .collect();
    names.sort();
    assert_eq!(names, expected.keys().cloned().collect::<Vec<_>>());
    // Every difference at once, as the lines expected.txt would need.
    let mut wrong = Vec::new();
    for (name, messages) in &expected {
        for threads in [Some(1), None] {
            let message = relative(error_of(&folder.join(name), threads), &folder);
            if message != format!("./{name}: {}", messages[0]) {
                wrong.push(format!("{threads:?} threads: {message}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "errors other than expected.txt's:\n{}",
        wrong.join("\n")
    );
}
