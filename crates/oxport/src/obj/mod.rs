//! Wavefront OBJ and MTL.
//!
//! [`write()`] produces the bytes Blender 3.4's exporter writes for the same
//! data (see `docs/formats/obj.md`); [`write_mtl`] its material libraries.
//! [`read()`] parses OBJ files on all cores into one mesh per object;
//! [`write_with_mtl`] writes an OBJ file and its MTL file together.

mod curve;
mod dedup;
mod dialect;
mod mtl;
mod mtl_read;
mod precision;
mod read;
mod scene;
mod warning;
mod write;

pub use curve::encode_curves;
pub use dialect::{CurveLayout, Dialect, TextureNumbers};
pub use mtl::{write_mtl, write_mtl_to};
pub use mtl_read::{MaterialLibrary, parse_mtl, read_mtl};
pub use precision::Precision;
pub use read::{
    FreeFormCurve, ObjectRule, ReadOptions, Scene, read, read_bytes, read_from, read_source,
};
pub use scene::{Conversion, SceneText, convert, mtl_path, write_scene, write_with_mtl};
pub use warning::ReadWarning;
pub(crate) use warning::{CURVE_TYPE_SKIPPED, FREE_FORM_SKIPPED};
pub use write::{
    FileWriter, WriteOptions, WriteSummary, Writer, write, write_to, write_with_progress,
};

/// A short piece of untrusted text as an error message quotes it: at most 24
/// characters, escaped, with `…` where it was cut (so that an error never
/// shows much of a file that was not meant to be read).
pub(crate) fn quoted(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(24).collect();
    let cut = if chars.next().is_some() { "…" } else { "" };
    format!("{head:?}{cut}")
}

/// A statement's text must stay on its line: an error naming `what` otherwise.
fn refuse_line_break(what: &str, text: &str) -> crate::Result<()> {
    if text.contains(['\n', '\r']) {
        return Err(crate::Error::invalid(format!(
            "{what} {text:?} contains a line break"
        )));
    }
    Ok(())
}
