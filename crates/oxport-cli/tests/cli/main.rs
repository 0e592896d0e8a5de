//! The command line tool's tests, one module per command, in one test
//! binary (built and linked once) with one helper that runs `oxport`.

mod common;
mod exr;
mod gradient;
mod obj;
mod paths;
mod version;
mod zst;
