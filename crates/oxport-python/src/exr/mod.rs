//! `oxport.exr`: OpenEXR images, a file per direction. Attributes are
//! converted once, here (`attributes.rs`); pixels come out decoded straight
//! into one `uint8` numpy array per channel (`read.rs`) and go in as
//! buffers read in place (`write.rs`); `yc.rs` converts luminance/chroma.

mod attributes;
mod read;
mod write;
mod yc;

pub use read::ExrReader;
pub(crate) use write::convert_options;
pub use write::{ExrNewPart, exr_convert, exr_write};
pub use yc::{exr_rgb_from_yc, exr_yc_from_rgb};
