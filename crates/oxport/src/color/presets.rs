//! The classic gradient comparisons: pairs and runs of colors whose
//! interpolation shows where sRGB goes muddy, linear light too bright and
//! Oklab right.

use super::gradient::Stop;
use super::hex::parse_hex;
use crate::{Error, Result};

/// (name, colors) of every preset.
pub const PRESETS: [(&str, &[&str]); 7] = [
    ("black-white", &["#000000", "#ffffff"]),
    ("blue-white", &["#0000ff", "#ffffff"]),
    ("red-green", &["#ff0000", "#00ff00"]),
    ("blue-yellow", &["#0000ff", "#ffff00"]),
    (
        "rainbow",
        &[
            "#9400d3", "#4b0082", "#0000ff", "#00ff00", "#ffff00", "#ff7f00", "#ff0000",
        ],
    ),
    (
        "black-red-yellow-blue-white",
        &["#000000", "#ff0000", "#ffff00", "#0000ff", "#ffffff"],
    ),
    ("red-blue-green", &["#ff0000", "#0000ff", "#00ff00"]),
];

/// The stops of the preset `name`, evenly spaced.
pub fn preset(name: &str) -> Option<Vec<Stop>> {
    let (_, colors) = PRESETS.iter().find(|(n, _)| *n == name)?;
    Some(
        colors
            .iter()
            .map(|hex| Stop {
                color: parse_hex(hex).expect("presets are valid hex"),
                position: None,
            })
            .collect(),
    )
}

/// The presets `name` asks for (a preset's name, or `all`), with their names.
pub fn presets(name: &str) -> Result<Vec<(&'static str, Vec<Stop>)>> {
    let names: Vec<&'static str> = PRESETS
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| name == "all" || *n == name)
        .collect();
    if names.is_empty() {
        let all: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
        return Err(Error::invalid(format!(
            "preset {name:?}: one of {}, or all",
            all.join(", ")
        )));
    }
    Ok(names
        .into_iter()
        .map(|n| (n, preset(n).expect("a listed preset")))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses() {
        for (name, colors) in PRESETS {
            assert_eq!(preset(name).unwrap().len(), colors.len());
        }
        assert!(preset("plaid").is_none());
        assert_eq!(presets("all").unwrap().len(), PRESETS.len());
        assert_eq!(presets("red-green").unwrap()[0].0, "red-green");
        assert!(
            presets("plaid")
                .unwrap_err()
                .to_string()
                .contains("rainbow")
        );
    }
}
