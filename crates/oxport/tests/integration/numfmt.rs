//! Fixed-precision formatting against glibc's `snprintf`: random bit patterns,
//! random values in the ranges meshes use, every tie, the special values.
// The checks spread their values over rayon's own pool: a test harness, not
// one of the library's loops (clippy.toml).
#![allow(clippy::disallowed_methods)]

use crate::glibc::{c_fixed, c_general, fixed};
use oxport::synth::Rng;
use rayon::prelude::*;

/// Random values of each test (a sample of them under an emulator).
fn random_values() -> u64 {
    crate::testing::sweep(10_000_000) as u64
}

fn assert_same_f32(bits: u32, precision: usize) {
    let value = f32::from_bits(bits);
    let ours = fixed(value, precision);
    let theirs = c_fixed(f64::from(value), precision);
    assert!(
        ours == theirs,
        "f32 {value:e} (bits {bits:#010x}) at {precision} decimals: oxport {:?}, snprintf {:?}",
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&theirs)
    );
}

fn assert_same_f64(bits: u64, precision: usize) {
    let value = f64::from_bits(bits);
    let ours = fixed(value, precision);
    let theirs = c_fixed(value, precision);
    assert!(
        ours == theirs,
        "f64 {value:e} (bits {bits:#018x}) at {precision} decimals: oxport {:?}, snprintf {:?}",
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&theirs)
    );
}

/// Half of the values are uniform bit patterns (every exponent, NaN payloads,
/// subnormals), half are uniform in [-2^k, 2^k] for k in 0..24 (the values
/// geometry has), where rounding decides the last digit.
fn random_f32(rng: &mut Rng) -> u32 {
    let raw = rng.next_u64();
    if raw & 1 == 0 {
        (raw >> 32) as u32
    } else {
        let scale = (1u32 << ((raw >> 8) % 24)) as f32;
        (rng.range(-1.0, 1.0) * scale).to_bits()
    }
}

fn random_f64(rng: &mut Rng) -> u64 {
    let raw = rng.next_u64();
    if raw & 1 == 0 {
        rng.next_u64()
    } else {
        let scale = (1u64 << ((raw >> 8) % 40)) as f64;
        ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 * scale - scale).to_bits()
    }
}

#[test]
fn random_f32_at_4_and_6_decimals() {
    for precision in [4, 6] {
        (0..random_values().div_ceil(100_000))
            .into_par_iter()
            .for_each(|block| {
                let mut rng = Rng::new(block * 31 + precision as u64);
                for _ in 0..random_values().min(100_000) {
                    assert_same_f32(random_f32(&mut rng), precision);
                }
            });
    }
}

#[test]
fn random_f64_at_4_and_6_decimals() {
    for precision in [4, 6] {
        (0..random_values().div_ceil(100_000))
            .into_par_iter()
            .for_each(|block| {
                let mut rng = Rng::new(block * 37 + precision as u64 + 1000);
                for _ in 0..random_values().min(100_000) {
                    assert_same_f64(random_f64(&mut rng), precision);
                }
            });
    }
}

#[test]
fn random_values_at_every_precision() {
    (0..=9usize).into_par_iter().for_each(|precision| {
        let mut rng = Rng::new(precision as u64 + 77);
        for _ in 0..crate::testing::sweep(200_000) {
            assert_same_f32(random_f32(&mut rng), precision);
            assert_same_f64(random_f64(&mut rng), precision);
        }
    });
}

/// Every dyadic rational m / 2^k with |m / 2^k| < 64 and k up to 14, for every
/// precision: all the exact ties at precision p are the odd multiples of
/// 2^-(p+1), so this covers every tie of precisions 0 to 9 in that range
/// (for p = 9 the ties need k = 10 and appear among these). Under an
/// emulator: k up to 10 and |m / 2^k| < 2.
#[test]
fn every_dyadic_tie() {
    let (most_k, bound) = if crate::testing::sweep(64) < 64 {
        (10, 2)
    } else {
        (14, 64)
    };
    (0..=most_k).into_par_iter().for_each(|k| {
        let denominator = (1u64 << k) as f64;
        let limit = bound << k;
        for m in -limit..=limit {
            let value = m as f64 / denominator;
            for precision in 0..=9 {
                assert_same_f64(value.to_bits(), precision);
                assert_same_f32((value as f32).to_bits(), precision);
            }
        }
    });
}

#[test]
fn special_values() {
    let f32s = [
        0.0f32,
        -0.0,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::MAX,
        f32::MIN,
        f32::EPSILON,
        0.5,
        -0.5,
        1e-7,
        -1e-7,
        16777216.0,
        16777217.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
    ];
    let f64s = [
        0.0f64,
        -0.0,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::MAX,
        f64::MIN,
        f64::EPSILON,
        9007199254740993.0,
        1e22,
        1e23,
        2f64.powi(64),
        2f64.powi(75),
        2f64.powi(76),
        2f64.powi(127),
        2f64.powi(128),
        2f64.powi(1000),
        0.999_999_999_5,
        -0.000_000_000_5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
    ];
    for precision in 0..=9 {
        for value in f32s {
            assert_same_f32(value.to_bits(), precision);
        }
        for value in f64s {
            assert_same_f64(value.to_bits(), precision);
        }
    }
}

/// Values whose rounding carries into a new integer digit.
#[test]
fn carries_into_a_new_digit() {
    for precision in 0..=9 {
        for digits in 0..15 {
            let value = 10f64.powi(digits) - 0.5 * 10f64.powi(-(precision as i32));
            for v in [value, value.next_up(), value.next_down(), -value] {
                assert_same_f64(v.to_bits(), precision);
                assert_same_f32((v as f32).to_bits(), precision);
            }
        }
    }
}

#[test]
fn general_is_glibcs_percent_g() {
    let mut rng = Rng::new(11);
    let mut values: Vec<f32> = (0..200_000)
        .map(|_| f32::from_bits(random_f32(&mut rng)))
        .collect();
    // Values around the switches between notations and around carries.
    for base in [1e-5f32, 1e-4, 1e-3, 0.1, 1.0, 10.0, 1e5, 1e6, 1e7] {
        for scale in [0.9999994f32, 0.9999995, 0.99999964, 1.0, 1.0000001] {
            values.extend([base * scale, -base * scale]);
        }
    }
    values.extend([
        0.0,
        -0.0,
        0.5,
        2.5,
        999999.5,
        9.999995,
        f32::from_bits(0x38d1_b716), // the float below 0.0001
        f32::MAX,
        f32::MIN_POSITIVE,
    ]);
    for value in values {
        for precision in 1..=6 {
            let mut ours = Vec::new();
            oxport::numfmt::write_general(&mut ours, value, precision);
            let theirs = c_general(f64::from(value), precision);
            assert!(
                ours == theirs,
                "{value:e} at %.{precision}g: {:?} vs {:?}",
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs)
            );
        }
    }
}
