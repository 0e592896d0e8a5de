//! The OBJ writer end to end: the same bytes on any number of threads and
//! for any chunk size, files that appear whole or not at all.

use oxport::obj::{self, Precision, WriteOptions};
use oxport::{Error, Mesh, synth};

fn write(meshes: &[Mesh], options: &WriteOptions) -> Vec<u8> {
    let mut out = Vec::new();
    obj::write_to(&mut out, meshes, options).unwrap();
    out
}

#[test]
fn same_bytes_whatever_the_threads_and_chunk_size() {
    let mut scene = synth::city(40, 5);
    scene.push(synth::sphere(6));
    let reference = write(
        &scene,
        &WriteOptions {
            threads: Some(1),
            chunk_size: 1 << 20,
            ..WriteOptions::default()
        },
    );
    for threads in [1, 2, 8] {
        for chunk_size in [1, 7, 1000, 32 * 1024] {
            let options = WriteOptions {
                threads: Some(threads),
                chunk_size,
                ..WriteOptions::default()
            };
            assert!(
                write(&scene, &options) == reference,
                "{threads} threads, chunks of {chunk_size}"
            );
        }
    }
}

#[test]
fn indices_are_global_and_one_based_across_objects() {
    let scene = synth::city(3, 1);
    let text = String::from_utf8(write(&scene, &WriteOptions::default())).unwrap();
    let (mut v, mut vt, mut vn) = (0u64, 0u64, 0u64);
    let mut max = (0u64, 0u64, 0u64);
    for line in text.lines() {
        match line.split(' ').next() {
            Some("v") => v += 1,
            Some("vt") => vt += 1,
            Some("vn") => vn += 1,
            Some("f") => {
                for corner in line.split(' ').skip(1) {
                    let parts: Vec<u64> =
                        corner.split('/').map(|p| p.parse().unwrap_or(0)).collect();
                    assert!(parts[0] >= 1 && parts[0] <= v, "{line}");
                    max.0 = max.0.max(parts[0]);
                    if parts.len() == 3 {
                        assert!(parts[2] >= 1 && parts[2] <= vn, "{line}");
                        max.2 = max.2.max(parts[2]);
                        if parts[1] > 0 {
                            assert!(parts[1] <= vt, "{line}");
                            max.1 = max.1.max(parts[1]);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    assert_eq!(max.0, v);
    assert_eq!(max.2, vn);
}

#[test]
fn shortest_precision_reads_back_exactly() {
    let scene = vec![synth::sphere(4)];
    let options = WriteOptions {
        precision: Precision::Shortest,
        ..WriteOptions::default()
    };
    let text = String::from_utf8(write(&scene, &options)).unwrap();
    let values: Vec<f32> = text
        .lines()
        .filter(|l| l.starts_with("v "))
        .flat_map(|l| l.split(' ').skip(1).map(|x| x.parse::<f32>().unwrap()))
        .collect();
    assert_eq!(values, scene[0].positions.as_flattened());
}

#[test]
fn invalid_options_are_refused_before_anything_is_written() {
    let dir = std::env::temp_dir().join(format!("oxport-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("never.obj");
    let options = WriteOptions {
        precision: Precision::Fixed(10),
        ..WriteOptions::default()
    };
    let error = obj::write(&path, &[synth::sphere(2)], &options).unwrap_err();
    assert!(matches!(error, Error::InvalidArgument(_)), "{error}");
    assert!(
        error
            .to_string()
            .contains("precision 10: a precision is 0 to 9 decimals, or shortest"),
        "{error}"
    );
    assert!(!path.exists());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "no temporary file is left"
    );

    // A directory where the file should go: the rename fails and nothing stays behind.
    std::fs::create_dir_all(path.join("inside")).unwrap();
    let error = obj::write(&path, &[synth::sphere(2)], &WriteOptions::default()).unwrap_err();
    assert!(
        error.to_string().starts_with(&path.display().to_string()),
        "{error}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_disk_is_an_error_naming_the_path() {
    let path = std::path::Path::new("/dev/full");
    if !path.exists() {
        return crate::testing::skip("this system has no /dev/full");
    }
    let error = obj::write(path, &[synth::sphere(3)], &WriteOptions::default()).unwrap_err();
    assert!(error.to_string().starts_with("/dev/full: "), "{error}");
}

/// Whether the file system of `folder` lets a file be written around the
/// page cache (asked of the system here, not of oxport): `O_DIRECT` on
/// Linux, `FILE_FLAG_NO_BUFFERING` on Windows; macOS's `F_NOCACHE` is a
/// hint every file system takes.
fn allows_direct_io(folder: &std::path::Path) -> bool {
    let probe = folder.join(format!(".probe-{}", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(target_os = "linux")]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_DIRECT);
    #[cfg(windows)]
    std::os::windows::fs::OpenOptionsExt::custom_flags(&mut options, 0x2000_0000);
    let opened = options.open(&probe).is_ok();
    let _ = std::fs::remove_file(&probe);
    opened && cfg!(any(target_os = "linux", windows, target_vendor = "apple"))
}

#[test]
fn direct_io_writes_the_same_bytes() {
    // A folder on the project's disk (O_DIRECT works there) and /dev/shm
    // (tmpfs refuses it: the writer must fall back to buffered writes).
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("direct");
    let folders = [target, std::path::PathBuf::from("/dev/shm")];
    // Sizes below, near and above the 8 MB staging buffer.
    let scenes = [
        vec![],
        vec![synth::sphere(2)],
        synth::city(50, 3),
        vec![synth::sphere(7)],
    ];
    for folder in folders
        .iter()
        .filter(|f| f.parent().is_none_or(|p| p.exists()))
    {
        std::fs::create_dir_all(folder).unwrap();
        let allowed = allows_direct_io(folder);
        for (i, scene) in scenes.iter().enumerate() {
            let expected = write(scene, &WriteOptions::default());
            let path = folder.join(format!("oxport-direct-{}-{i}.obj", std::process::id()));
            let options = WriteOptions {
                direct: true,
                ..WriteOptions::default()
            };
            let summary = obj::write(&path, scene, &options).unwrap();
            let written = std::fs::read(&path).unwrap();
            std::fs::remove_file(&path).unwrap();
            assert_eq!(summary.bytes, expected.len() as u64);
            assert_eq!(summary.direct, allowed, "{}", folder.display());
            assert!(
                written == expected,
                "{} scene {i}: {} bytes, expected {}",
                folder.display(),
                written.len(),
                expected.len()
            );
        }
    }
}

#[test]
fn a_stream_of_batches_writes_what_one_call_writes() {
    let scene = synth::city(30, 11);
    let options = WriteOptions {
        header: vec!["streamed".into()],
        mtllib: Some("city.mtl".into()),
        ..WriteOptions::default()
    };
    let whole = write(&scene, &options);
    let mut writer = obj::Writer::new(Vec::new(), options.clone()).unwrap();
    for batch in scene.chunks(7) {
        writer.write(batch).unwrap();
    }
    let (streamed, summary) = writer.finish().unwrap();
    assert!(streamed == whole);
    assert_eq!(summary.objects, 30);
    assert_eq!(summary.bytes, whole.len() as u64);

    // A file writer dropped before finishing leaves nothing behind.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("stream");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("abandoned.obj");
    let mut writer = obj::FileWriter::create(&path, options.clone()).unwrap();
    writer.write(&scene[..3]).unwrap();
    drop(writer);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let mut writer = obj::FileWriter::create(&path, options).unwrap();
    for batch in scene.chunks(4) {
        writer.write(batch).unwrap();
    }
    writer.finish().unwrap();
    assert!(std::fs::read(&path).unwrap() == whole);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn eight_threads_writing_one_path_leave_one_whole_file_and_no_temporary() {
    let folder = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("eight-writers");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("scene.obj");
    let scene = vec![synth::sphere(4)];
    // Each writer's file is told apart by its header.
    let options: Vec<WriteOptions> = (0..8)
        .map(|i| WriteOptions {
            header: vec![format!("writer {i}")],
            threads: Some(2),
            chunk_size: 1024,
            ..WriteOptions::default()
        })
        .collect();
    let expected: Vec<Vec<u8>> = options.iter().map(|o| write(&scene, o)).collect();
    for round in 0..5 {
        let start = std::sync::Barrier::new(8);
        std::thread::scope(|s| {
            for options in &options {
                let (start, path, scene) = (&start, &path, &scene);
                s.spawn(move || {
                    start.wait();
                    obj::write(path, scene, options).unwrap();
                });
            }
        });
        let written = std::fs::read(&path).unwrap();
        assert!(
            expected.contains(&written),
            "round {round}: {} bytes, not one writer's whole file",
            written.len()
        );
        let names: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["scene.obj"], "round {round}");
    }
}
