//! Pictures for reports: an RGB canvas with rectangles, discs and 3×5
//! pixel text, saved as an 8-bit sRGB PNG. The OpenEXR lab's chart and the
//! color gradient strips are drawn with it.

mod canvas;
mod font;

pub use canvas::{Canvas, Rgb};
pub use font::glyph;
