//! `oxport obj info` on a small file: counts and bounds; a bad file's error
//! names the file and the line.

use std::process::Command;

fn oxport(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_oxport"))
        .args(args)
        .output()
        .expect("oxport runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

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
    assert!(out.contains("1 materials (mtllib: two.mtl)"), "{out}");
    assert!(
        out.contains("bounds: [0.0, 0.0, -1.0] to [1.0, 1.0, 2.0]"),
        "{out}"
    );
    let bad = dir.join("bad.obj");
    std::fs::write(&bad, "v 0 0 0\nf 1 2 3\n").unwrap();
    let (ok, _, err) = oxport(&["obj", "info", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("bad.obj:2: position index 2 is out of range"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
