//! What this build has: the optional engines compiled in and the version
//! of libzstd linked, for `oxport --version` and
//! `oxport.build_info()`.
//!
//! The default build needs only Rust and a C compiler; the engines below
//! need more tools to build (see `crates/oxport/Cargo.toml`) and change only
//! speed, never the bytes a reader returns. (The filter lab, `oxport-lab`,
//! lists its own: ZFP.)

/// An optional engine and whether this build has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engine {
    /// Short name: `isal`, `direct` (and the lab's `zfp`).
    pub name: &'static str,
    /// Whether it is compiled in.
    pub enabled: bool,
    /// What it changes when it is.
    pub changes: &'static str,
}

/// The optional engines, each with whether this build has it.
pub const ENGINES: [Engine; 2] = [
    Engine {
        name: "isal",
        enabled: cfg!(feature = "isal"),
        changes: "ISA-L's igzip compresses deflate levels 1 to 3 (about 1.7x libdeflate's speed, \
                  about 5% larger output); without it libdeflate compresses every level",
    },
    Engine {
        name: "direct",
        enabled: crate::direct::AVAILABLE,
        changes: crate::direct::HOW,
    },
];

/// The version of libzstd linked, such as `1.5.7`.
pub fn zstd_version() -> &'static str {
    zstd_safe::version_string()
}

/// One paragraph a person reads: of `engines` (this crate's [`ENGINES`],
/// and those of the crates a program adds), those compiled in (`+`) and
/// left out (`-`), and libzstd's version.
pub fn summary(engines: &[Engine]) -> String {
    let mut text = String::new();
    for engine in engines {
        let mark = if engine.enabled { "+" } else { "-" };
        text.push_str(&format!("{mark}{}: {}\n", engine.name, engine.changes));
    }
    text.push_str(&format!("libzstd {}", zstd_version()));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_follow_the_features() {
        let isal = ENGINES.iter().find(|e| e.name == "isal").unwrap();
        assert_eq!(isal.enabled, cfg!(feature = "isal"));
        assert_eq!(
            crate::codec::deflate::Engine::Fastest.uses_isal(1),
            isal.enabled
        );
        let summary = summary(&ENGINES);
        assert!(summary.contains(&format!("libzstd {}", zstd_version())));
        assert!(zstd_version().starts_with("1."));
    }
}
