//! `obj::read` on the files of `tests/data/`: `invalid/` fail with the error
//! in `invalid/expected.txt`; `valid/` read with the warnings in
//! `valid/expected.txt` (and fail with `valid/strict.txt`'s error when strict).
//! Messages are compared with the data folder's path written as `.`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use oxport::obj::{self, ReadOptions};

pub(crate) fn data(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(kind)
}

/// `NAME: TEXT` lines, the texts of each name in order.
pub(crate) fn lines_of(path: &Path) -> BTreeMap<String, Vec<String>> {
    let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let (name, text) = line.split_once(':').unwrap();
        let text = text.strip_prefix(' ').unwrap_or(text);
        map.entry(name.into()).or_default().push(text.into());
    }
    map
}

fn files(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".obj"))
        .collect();
    names.sort();
    names
}

pub(crate) fn relative(text: String, folder: &Path) -> String {
    let prefix = format!("{}{}", folder.display(), std::path::MAIN_SEPARATOR);
    text.replace(&prefix, "./")
        .replace(&folder.display().to_string(), ".")
}

#[test]
fn invalid_files_fail_with_their_error() {
    let folder = data("invalid");
    let mut expected = lines_of(&folder.join("expected.txt"));
    expected.retain(|name, _| name.ends_with(".obj"));
    assert_eq!(files(&folder), expected.keys().cloned().collect::<Vec<_>>());
    for (name, messages) in &expected {
        for threads in [Some(1), None] {
            let options = ReadOptions {
                threads,
                ..ReadOptions::default()
            };
            let error = obj::read(&folder.join(name), &options).unwrap_err();
            let message = relative(error.to_string(), &folder);
            assert_eq!(message, format!("./{name}:{}", messages[0]));
        }
    }
}

#[test]
fn valid_files_read_with_their_warnings() {
    let folder = data("valid");
    let expected = lines_of(&folder.join("expected.txt"));
    assert_eq!(files(&folder), expected.keys().cloned().collect::<Vec<_>>());
    for (name, warnings) in &expected {
        let path = folder.join(name);
        let scene = obj::read(&path, &ReadOptions::default()).unwrap();
        let mut seen: Vec<String> = scene
            .warnings
            .iter()
            .map(|w| {
                assert_eq!(w.path.as_deref(), Some(path.as_path()));
                let without_path = obj::ReadWarning {
                    path: None,
                    ..w.clone()
                };
                relative(without_path.to_string(), &folder)
            })
            .collect();
        if seen.is_empty() {
            seen.push("no warnings".into());
        }
        assert_eq!(&seen, warnings, "{name}");
        for mesh in &scene.meshes {
            mesh.validate().unwrap();
        }
    }
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    for (name, messages) in lines_of(&folder.join("strict.txt")) {
        let error = obj::read(&folder.join(&name), &strict).unwrap_err();
        assert_eq!(relative(error.to_string(), &folder), messages[0], "{name}");
    }
}

#[test]
fn mtl_files_are_read_from_the_root_only() {
    let folder = tempfile::tempdir().unwrap();
    let inner = folder.path().join("scenes");
    std::fs::create_dir_all(inner.join("materials")).unwrap();
    let mtl = "newmtl red\nKd 1 0 0\n";
    std::fs::write(folder.path().join("above.mtl"), mtl).unwrap();
    std::fs::write(inner.join("materials/inside.mtl"), mtl).unwrap();
    // A link out of the root (Windows lets only some users make one).
    #[cfg(unix)]
    let linked =
        std::os::unix::fs::symlink(folder.path().join("above.mtl"), inner.join("link.mtl"));
    #[cfg(windows)]
    let linked =
        std::os::windows::fs::symlink_file(folder.path().join("above.mtl"), inner.join("link.mtl"));
    // (Wine makes links that cannot be opened.)
    let links = usize::from(linked.is_ok() && std::fs::read(inner.join("link.mtl")).is_ok());
    if links == 0 {
        let _ = std::fs::remove_file(inner.join("link.mtl"));
    }
    let obj = inner.join("scene.obj");
    let mut text = "mtllib materials/inside.mtl\nmtllib ../above.mtl\n".to_string();
    if links == 1 {
        text.push_str("mtllib link.mtl\n");
    }
    std::fs::write(&obj, text + "v 0 0 0\n").unwrap();
    let read = |options: ReadOptions| obj::read(&obj, &options).unwrap();
    // By default: the OBJ file's folder and below; the file above and the
    // link out of it are warnings.
    let scene = read(ReadOptions::default());
    assert_eq!(scene.mtl_files, [inner.join("materials/inside.mtl")]);
    assert_eq!(scene.materials.len(), 1);
    let outside: Vec<&str> = scene.warnings.iter().map(|w| w.what.as_str()).collect();
    assert_eq!(outside.len(), 1 + links, "{outside:?}");
    assert!(
        outside
            .iter()
            .all(|w| w.contains("is outside") && w.ends_with("not opened")),
        "{outside:?}"
    );
    // Widened to the folder above: all three.
    let scene = read(ReadOptions {
        mtl_root: Some(folder.path().into()),
        ..ReadOptions::default()
    });
    assert_eq!(scene.mtl_files.len(), 2 + links, "{:?}", scene.warnings);
    assert!(scene.warnings.is_empty());
    // Turned off: none read, none reported.
    let scene = read(ReadOptions {
        materials: false,
        ..ReadOptions::default()
    });
    assert!(scene.mtl_files.is_empty() && scene.warnings.is_empty());
    assert_eq!(scene.mtllibs.len(), 2 + links);
    // Strict: the first refused file is the error.
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    let error = obj::read(&obj, &strict).unwrap_err().to_string();
    assert!(error.contains("\"../above.mtl\" is outside"), "{error}");
}
