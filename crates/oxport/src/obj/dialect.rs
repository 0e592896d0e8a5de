//! What the OBJ and MTL formats leave to the writer, as typed rules: the
//! layouts of the exporters whose bytes oxport makes. Which Blender version
//! writes which is Blender's rule (`blender_obj::dialect`); the writers
//! only follow the rules they are given.

use serde::{Deserialize, Serialize};

/// How a writer lays out what the formats leave open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dialect {
    /// Free-form curves' statements.
    pub curves: CurveLayout,
    /// Texture map options' values.
    pub texture_numbers: TextureNumbers,
}

/// How a free-form curve's statements are laid out, as the exporter each
/// is named after writes them (numbers with six decimals but where a
/// layout says otherwise).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CurveLayout {
    /// The points (`v`), then `g`, `cstype`, `deg`; `curv` with the range
    /// and the indices; `parm u` with the knots. The range and the first
    /// and last knots with one decimal (`curv 0.0 1.0`: Blender 3.4's
    /// parameter runs from 0 to 1).
    #[default]
    Blender34,
    /// As 3.4's, every number with six decimals.
    Blender45,
    /// `g`, `cstype`, `deg`, then the points; the rest as 4.5's.
    Blender50,
}

/// How the vector options of texture maps (`-o`, `-s`, `-t`, `-mm`) are
/// written; the scalars (`-bm`, `-boost`) have six decimals, as every
/// other MTL value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextureNumbers {
    /// `printf("%g")`: six significant digits, no trailing zeros (Blender 3.4).
    #[default]
    General,
    /// The shortest text that reads back as the same `f32` (Blender 4.5, 5.0).
    Shortest,
}
