pub mod demo;
pub mod obj;
pub mod zst;
