pub mod batch;
pub mod demo;
pub mod exr;
pub mod gradient;
pub mod obj;
pub mod zst;
