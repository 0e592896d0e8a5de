//! What the unit tests share beyond scenes (those are `synth`).

/// `n`, or a 64th of it when the tests run under an emulator: qemu-user
/// takes 30 to 50 times as long as the processor it emulates, and
/// `tools/cross/qemu-run.sh` says so with `OXPORT_TEST_EMULATED=1`. The
/// sweeps over millions of values then check a sample of them, through the
/// same code.
pub(crate) fn sweep(n: usize) -> usize {
    if std::env::var_os("OXPORT_TEST_EMULATED").is_some_and(|v| v == "1") {
        n.div_ceil(64)
    } else {
        n
    }
}
