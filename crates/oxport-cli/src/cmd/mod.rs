pub mod demo;
pub mod obj;
