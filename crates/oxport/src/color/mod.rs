//! Color: sRGB (8-bit and float), linear sRGB, Oklab and Oklch, with CSS
//! Color 4's definitions and matrices; conversions over whole arrays, in
//! parallel for large ones.
//!
//! ```
//! use oxport::color::{self, Space};
//!
//! let mut colors = [[1.0, 0.0, 0.0]];
//! color::convert(&mut colors, Space::Srgb, Space::Oklch, None)?;
//! let [l, c, h] = colors[0];
//! assert!((l - 0.62796).abs() < 1e-5 && (c - 0.25768).abs() < 1e-5 && (h - 29.2339).abs() < 1e-4);
//! # Ok::<(), oxport::Error>(())
//! ```

mod convert;
mod gamut;
mod gradient;
mod hex;
mod image;
mod lanes;
pub mod oklab;
pub mod oklch;
mod presets;
mod render;
mod space;
pub mod srgb;
mod stops;

pub use convert::{convert, convert_one};
pub use gamut::{JND, clip, map_oklch_to_srgb};
pub use gradient::{Fit, GradientOptions, Hue, Stop, gradient, positions};
pub use hex::parse_hex;
pub use image::{Samples, SamplesMut, convert_pixels, convert_pixels_in_place};
pub use presets::{PRESETS, preset, presets};
pub use render::{Panel, render_gradients, write_gradients};
pub use space::Space;
pub use stops::parse_stops;
