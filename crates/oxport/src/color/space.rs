//! The color spaces and their names.

use std::str::FromStr;

use crate::{Error, Result};

/// A color space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// sRGB, encoded (what `#rrggbb` means), components in [0, 1] in gamut.
    Srgb,
    /// Linear-light sRGB.
    Linear,
    /// Oklab: L in [0, 1], a and b about ±0.4.
    Oklab,
    /// Oklch: L, chroma, hue in degrees.
    Oklch,
}

impl Space {
    /// Every space, in the order tables and charts list them.
    pub const ALL: [Space; 4] = [Space::Srgb, Space::Linear, Space::Oklab, Space::Oklch];

    /// The name `FromStr` reads.
    pub fn name(self) -> &'static str {
        match self {
            Space::Srgb => "srgb",
            Space::Linear => "linear",
            Space::Oklab => "oklab",
            Space::Oklch => "oklch",
        }
    }
}

impl std::fmt::Display for Space {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Space {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        match s.to_ascii_lowercase().as_str() {
            "srgb" => Ok(Space::Srgb),
            "linear" | "srgb-linear" => Ok(Space::Linear),
            "oklab" => Ok(Space::Oklab),
            "oklch" => Ok(Space::Oklch),
            _ => Err(Error::invalid(format!(
                "color space {s:?}: srgb, linear (or srgb-linear), oklab or oklch"
            ))),
        }
    }
}
