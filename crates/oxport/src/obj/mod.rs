//! Wavefront OBJ and MTL.
//!
//! [`write()`] produces the bytes Blender 3.4's exporter writes for the same
//! data (see `docs/formats/obj.md`); [`write_mtl`] its material libraries.

mod dedup;
mod mtl;
mod write;

pub use mtl::{write_mtl, write_mtl_to};
pub use write::{
    FileWriter, Precision, WriteOptions, WriteSummary, Writer, write, write_to, write_with_progress,
};
