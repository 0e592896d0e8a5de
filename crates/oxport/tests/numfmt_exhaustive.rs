//! Every one of the 2^32 `f32` bit patterns at 6 decimals against glibc's
//! `snprintf`. Minutes on two cores, so behind a feature:
//!
//! cargo test --release -p oxport --features exhaustive --test numfmt_exhaustive

#![cfg(feature = "exhaustive")]
// The checks spread their values over rayon's own pool: a test harness, not
// one of the library's loops (clippy.toml).
#![allow(clippy::disallowed_methods)]

#[path = "integration/glibc.rs"]
mod glibc;

use glibc::{c_fixed, c_fixed_into, fixed};
use rayon::prelude::*;

#[test]
fn every_f32_at_6_decimals() {
    (0..1u64 << 16).into_par_iter().for_each(|high| {
        let mut ours = Vec::new();
        let mut buf = [0u8; 400];
        for low in 0..1u32 << 16 {
            let bits = (high as u32) << 16 | low;
            let value = f32::from_bits(bits);
            ours.clear();
            oxport::numfmt::write_fixed(&mut ours, value, 6);
            let theirs = c_fixed_into(f64::from(value), 6, &mut buf);
            assert!(
                ours == theirs,
                "bits {bits:#010x}: {:?} vs {:?}",
                fixed(value, 6),
                c_fixed(f64::from(value), 6)
            );
        }
    });
}
