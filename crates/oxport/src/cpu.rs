//! The run-time choice of SIMD kernels, and the switch that turns it off.
//!
//! A kernel built on instructions beyond the target's baseline (AVX and F16C
//! for half floats and DWA's inverse DCT, AVX2 with FMA and AVX-512 for the
//! color conversions) runs where the processor has them; elsewhere its
//! portable fallback runs, with the same results. `OXPORT_PORTABLE=1` in the
//! environment makes every such choice the fallback, for the whole process
//! (read once, at the first choice): `make test` runs the library's tests so
//! as well, which tests the fallbacks on a processor that has the kernels,
//! and a user who suspects a kernel can compare with it.

use std::sync::OnceLock;

/// Whether the portable fallbacks run whatever the processor has
/// (`OXPORT_PORTABLE=1`).
#[cfg_attr(
    not(target_arch = "x86_64"),
    expect(dead_code, reason = "the SIMD kernels chosen at run time are x86_64's")
)]
pub(crate) fn portable() -> bool {
    static PORTABLE: OnceLock<bool> = OnceLock::new();
    *PORTABLE.get_or_init(|| std::env::var_os("OXPORT_PORTABLE").is_some_and(|v| v == "1"))
}

/// Whether AVX2 kernels run: the processor has AVX2 and the portable
/// fallbacks are not forced.
#[cfg(target_arch = "x86_64")]
pub(crate) fn avx2() -> bool {
    !portable() && std::arch::is_x86_feature_detected!("avx2")
}
