//! Wavefront OBJ and MTL.
//!
//! [`write()`] produces the bytes Blender 3.4's exporter writes for the same
//! data (see `docs/formats/obj.md`); [`write_mtl`] its material libraries.
//! [`read()`] parses OBJ files on all cores into one mesh per object;
//! [`write_with_mtl`] writes an OBJ file and its MTL file together.

mod dedup;
mod mtl;
mod mtl_read;
mod read;
mod scene;
mod write;

pub use mtl::{write_mtl, write_mtl_to};
pub use mtl_read::{MaterialLibrary, mtl_files, parse_mtl, read_mtl};
pub use read::{ReadOptions, Scene, read, read_bytes, read_from};
pub use scene::write_with_mtl;
pub use write::{
    FileWriter, Precision, WriteOptions, WriteSummary, Writer, write, write_to, write_with_progress,
};

/// A statement's text must stay on its line: an error naming `what` otherwise.
fn refuse_line_break(what: &str, text: &str) -> crate::Result<()> {
    if text.contains(['\n', '\r']) {
        return Err(crate::Error::invalid(format!(
            "{what} {text:?} contains a line break"
        )));
    }
    Ok(())
}
