//! `oxport obj info` on a small file: counts and bounds; a bad file's error
//! names the file and the line. `oxport obj convert`: the same file again,
//! or with other precisions, and its MTL beside it.

use crate::common::oxport;

#[test]
fn info_describes_a_file() {
    let dir = std::env::temp_dir().join(format!("oxport-info-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("two.obj");
    std::fs::write(
        &good,
        "mtllib two.mtl\no a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl red\nf 1 2 3\n\
         o b\nv 0 0 2\nv 1 0 2\nv 0 1 -1\nl 4 5\nf -3 -2 -1\n",
    )
    .unwrap();
    let (ok, out, err) = oxport(&["obj", "info", good.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        out.contains("2 objects, 6 vertices, 2 faces, 6 corners"),
        "{out}"
    );
    assert!(
        out.contains("1 materials used, 0 defined in 0 MTL files read (mtllib: two.mtl)"),
        "{out}"
    );
    // two.mtl is not there: a warning, and with --strict an error.
    assert!(
        out.contains("two.obj: MTL file not read: ") && out.contains("two.mtl: no such file"),
        "{out}"
    );
    let (ok, _, err) = oxport(&["obj", "info", "--strict", good.to_str().unwrap()]);
    assert!(!ok && err.contains("two.mtl: no such file"), "{err}");
    let (ok, out, _) = oxport(&["obj", "info", "--no-mtl", good.to_str().unwrap()]);
    assert!(ok && !out.contains("warning"), "{out}");
    assert!(
        out.contains("bounds: [0.0, 0.0, -1.0] to [1.0, 1.0, 2.0]"),
        "{out}"
    );
    let bad = dir.join("bad.obj");
    std::fs::write(&bad, "v 0 0 0\nv 1 0 0\nl 1 3\n").unwrap();
    let (ok, _, err) = oxport(&["obj", "info", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("bad.obj:3: position index 3 is out of range"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_writes_the_file_again() {
    let dir = std::env::temp_dir().join(format!("oxport-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.obj");
    let text = "# made by hand\nmtllib in.mtl\no a\nv 0.123456 0.000000 0.000000\n\
                v 1.000000 0.000000 0.000000\nv 0.000000 1.000000 0.000000\n\
                vn 0.0000 0.0000 1.0000\ns 0\nusemtl red\nf 1//1 2//1 3//1\n";
    std::fs::write(&input, text).unwrap();
    let mtl = "# made by hand\n\nnewmtl red\nKd 0.800000 0.100000 0.100000\n";
    std::fs::write(dir.join("in.mtl"), mtl).unwrap();
    let output = dir.join("out.obj");
    let (ok, out, err) = oxport(&[
        "obj",
        "convert",
        input.to_str().unwrap(),
        output.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("1 objects, 0 statements skipped, 1 materials"),
        "{out}"
    );
    let written = std::fs::read_to_string(&output).unwrap();
    assert_eq!(written, text.replace("mtllib in.mtl", "mtllib out.mtl"));
    assert_eq!(std::fs::read_to_string(dir.join("out.mtl")).unwrap(), mtl);
    let (ok, _, err) = oxport(&[
        "obj",
        "convert",
        input.to_str().unwrap(),
        output.to_str().unwrap(),
        "--precision",
        "2",
    ]);
    assert!(ok, "{err}");
    let written = std::fs::read_to_string(&output).unwrap();
    assert!(written.contains("\nv 0.12 0.00 0.00\n"), "{written}");
    let (ok, _, err) = oxport(&[
        "obj",
        "convert",
        input.to_str().unwrap(),
        "x.obj",
        "--precision",
        "12",
    ]);
    assert!(!ok);
    assert!(
        err.contains("12: a precision is 0 to 9 decimals, or shortest"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
