//! Batches of files, each converted on its own: one typed [`Job`] (inputs,
//! where their outputs go, the [`Conversion`] with its options), planned
//! once ([`Job::plan`]) and run file by file by either front end — the
//! command line's loop, or the Python package's Dask tasks (`oxport.dask`),
//! to which the command line hands a job as JSON ([`Job::to_json`]).

mod job;
mod targets;

pub use job::{Conversion, Done, Job, Output, located};
pub use targets::{is_directory, targets};
