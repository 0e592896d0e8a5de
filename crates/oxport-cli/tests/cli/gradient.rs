//! `oxport gradient`: strips from stops and presets as the library draws
//! them, one-line errors that name the bad stop, and no file left behind by
//! a failure.

use oxport::color::{self, GradientOptions, Panel};

use crate::common::oxport;

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
    // The PNG is the library's drawing of those stops, then the preset, in
    // those four spaces with the longer hue path, 256 pixels wide.
    let rows: Vec<GradientOptions> = ["srgb", "linear", "oklab", "oklch"]
        .iter()
        .map(|space| GradientOptions {
            space: space.parse().unwrap(),
            hue: "longer".parse().unwrap(),
            ..GradientOptions::default()
        })
        .collect();
    let mut panels = vec![Panel {
        title: "#000, #ff0000 30%, #fff".into(),
        stops: color::parse_stops("#000, #ff0000 30%, #fff").unwrap(),
        rows: rows.clone(),
    }];
    panels.extend(Panel::presets("rainbow", &rows).unwrap());
    let mut expected = Vec::new();
    color::render_gradients(&panels, 256, &mut expected).unwrap();
    assert_eq!(std::fs::read(out).unwrap(), expected);

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
