//! The library's integration tests, one binary (one link, one run) with a
//! module per area. `data/valid/` and `data/invalid/` beside it hold the files
//! the readers are replayed on, named by expected outcome.

mod blender;
mod damaged;
mod glibc;
mod mtl;
mod numfmt;
mod obj_read;
mod obj_write;
mod seekable;
#[path = "../../src/testing.rs"]
mod testing;
