pub mod demo;
pub mod exr;
pub mod obj;
pub mod zst;
