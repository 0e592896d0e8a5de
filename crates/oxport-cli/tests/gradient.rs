//! `oxport gradient`: strips from stops and presets as a PNG, one-line
//! errors that name the bad stop, and no file left behind by a failure.

mod common;

use common::oxport;

#[test]
fn stops_and_presets_draw_a_png_and_mistakes_say_what() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("strips.png");
    let out = out.to_str().unwrap();
    let (ok, _, err) = oxport(&[
        "gradient",
        "#000, #ff0000 30%, #fff",
        "--preset",
        "rainbow",
        "--spaces",
        "srgb,linear,oklab,oklch",
        "--hue",
        "longer",
        "--width",
        "256",
        "--out",
        out,
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("2 gradient(s) × 4 row(s)"), "{err}");
    let png = std::fs::read(out).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");

    let bad = dir.path().join("bad.png");
    let bad = bad.to_str().unwrap();
    let (ok, _, err) = oxport(&["gradient", "#000,#12345", "--out", bad]);
    assert!(
        !ok && err.contains("stop 2") && err.contains("5 digits"),
        "{err}"
    );
    let (ok, _, err) = oxport(&["gradient", "--preset", "plaid", "--out", bad]);
    assert!(!ok && err.contains("rainbow"), "{err}");
    let (ok, _, err) = oxport(&["gradient", "#000,#fff", "--spaces", "hsl", "--out", bad]);
    assert!(!ok && err.contains("oklch"), "{err}");
    assert!(!std::path::Path::new(bad).exists());
}
