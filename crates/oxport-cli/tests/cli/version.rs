//! `oxport --version`: the version and what this build has.

use crate::common::oxport;

#[test]
fn version_lists_the_engines_of_this_build() {
    let (ok, out, err) = oxport(&["--version"]);
    assert!(ok, "{err}");
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some(concat!("oxport ", env!("CARGO_PKG_VERSION")))
    );
    // The features this test binary's oxport was built with (zfp: the lab's).
    for (name, enabled) in [
        ("isal", cfg!(feature = "isal")),
        ("zfp", cfg!(feature = "zfp")),
        (
            "direct",
            cfg!(any(target_os = "linux", windows, target_vendor = "apple")),
        ),
    ] {
        let mark = if enabled { '+' } else { '-' };
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("{mark}{name}: "))),
            "{name}: {out}"
        );
    }
    assert!(out.lines().any(|l| l.starts_with("libzstd 1.")), "{out}");
    // -V stays one line.
    let (ok, short, _) = oxport(&["-V"]);
    assert!(ok);
    assert_eq!(
        short.trim_end(),
        concat!("oxport ", env!("CARGO_PKG_VERSION"))
    );
}
