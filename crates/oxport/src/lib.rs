//! oxport: fast, exact I/O for 3D and VFX data.
//!
//! Writing a mesh as Wavefront OBJ, the same bytes Blender 3.4 writes:
//!
//! ```
//! use oxport::{Mesh, obj};
//!
//! let triangle = Mesh {
//!     name: "triangle".into(),
//!     positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]].into(),
//!     face_offsets: vec![0, 3].into(),
//!     position_indices: vec![0, 1, 2].into(),
//!     ..Mesh::default()
//! };
//! let mut out = Vec::new();
//! obj::write_to(&mut out, &[triangle], &obj::WriteOptions::default())?;
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "o triangle\nv 0.000000 0.000000 0.000000\nv 1.000000 0.000000 0.000000\n\
//!      v 0.000000 1.000000 0.000000\nf 1 2 3\n"
//! );
//! # Ok::<(), oxport::Error>(())
//! ```
//!
//! The modules: [`numfmt`] (numbers to text, exactly), [`pipeline`] (the
//! ordered parallel pipeline under every reader and writer, and the one
//! thread policy: `None` is one thread per core, `0` an error), [`mesh`] (the
//! scene model), [`obj`] (OBJ and MTL, at once or streamed; the reader's passes
//! one file each under `obj/read/`), [`blender`] (what Blender's exporters
//! compute before they write and its importer after it reads, one file per
//! algorithm, no file format), [`blender_obj`] (the two joined: Blender's
//! OBJ layouts and import), [`seekable`]
//! (Zstandard seekable archives: parallel packing, random access, Blender's
//! compressed `.blend` files), [`exr`] (OpenEXR scan line images, the bytes
//! OpenEXR 3.5 writes, chunks in parallel), [`codec`] (zstd and deflate for bytes in
//! memory: exact-size outputs, linear multi-frame decompression, limits), [`atomic`] (whole files or none), [`batch`] (batch jobs: where the outputs go, each file's conversion, for the command line and `oxport.dask`), [`raster`] (an RGB canvas with a 3×5 font, saved as PNG: charts and strips), [`source`] (bytes read at an offset from any thread: files, memory, remote objects), [`synth`] (procedural
//! scenes for demos and tests). Errors are one [`Error`] type; every file is
//! written whole or not at all. `docs/layout.md` in the repository maps the
//! files.

#![warn(missing_docs)]

mod as_text;
pub mod atomic;
pub mod batch;
pub mod blender;
pub mod blender_obj;
pub mod build;
pub mod codec;
pub mod color;
mod cpu;
mod direct;
mod error;
pub mod exr;
mod feed;
mod half;
mod merge;
pub mod mesh;
pub mod numfmt;
pub mod obj;
pub mod pipeline;
pub mod raster;
#[cfg(feature = "remote")]
pub mod remote;
mod scratch;
pub mod seekable;
pub mod source;
mod sync;
pub mod synth;
#[cfg(test)]
mod testing;

pub use error::{Error, Result};
pub use mesh::{Channel, Curve, Material, Mesh, Projection, TextureMap};

/// The Rust examples of the README and the guides, run as doc tests (their
/// Python and shell examples are `python/tests/test_guides.py`'s).
#[cfg(doctest)]
mod guides {
    #[doc = include_str!("../../../README.md")]
    struct Readme;
    #[doc = include_str!("../../../docs/guide/obj.md")]
    struct Obj;
    #[doc = include_str!("../../../docs/guide/seekable.md")]
    struct Seekable;
    #[doc = include_str!("../../../docs/guide/color.md")]
    struct Color;
}
