//! The library's integration tests, one binary (one link, one run) with a
//! module per area. `data/valid/` and `data/invalid/` beside it hold the files
//! the readers are replayed on, named by expected outcome.

mod blender;
mod damaged;
mod glibc;
mod mtl;
mod numfmt;
mod obj_read;
mod obj_write;
mod seekable;

/// `n`, or a 64th of it when the tests run under an emulator: qemu-user
/// takes 30 to 50 times as long as the processor it emulates, and
/// `tools/cross/qemu-run.sh` says so with `OXPORT_TEST_EMULATED=1`. The
/// sweeps over millions of values then check a sample of them, through the
/// same code.
pub fn sweep(n: u64) -> u64 {
    if std::env::var_os("OXPORT_TEST_EMULATED").is_some_and(|v| v == "1") {
        n.div_ceil(64)
    } else {
        n
    }
}
