//! What the tests share beyond scenes (those are `synth`): compiled into
//! the unit tests and, by path, into the integration tests.
//!
//! A test whose precondition is missing (an instruction set, a device)
//! skips, saying why ([`skip`]); a run that did not expect the skip fails.
//! `OXPORT_EXPECTED_SKIPS` unset (a developer's run), a skip is a skip. Set
//! (`make test` sets it), it holds the skips the run expects as fragments of
//! their reasons, separated by `|`: a skip whose reason holds none of them
//! fails its test. The Python suites keep the same rule
//! (`python/testing/expected_skips.py`).

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

/// Says that the calling test skips for `reason`; panics where the run did
/// not expect it. The test returns right after.
pub(crate) fn skip(reason: &str) {
    if let Ok(expected) = std::env::var("OXPORT_EXPECTED_SKIPS") {
        assert!(
            expects(&expected, reason),
            "skipped, and this run expects no such skip (OXPORT_EXPECTED_SKIPS={expected:?}): {reason}"
        );
    }
    eprintln!("skipped: {reason}");
}

/// Whether `reason` holds one of the `|`-separated fragments of `expected`.
fn expects(expected: &str, reason: &str) -> bool {
    expected
        .split('|')
        .map(str::trim)
        .any(|fragment| !fragment.is_empty() && reason.contains(fragment))
}

#[test]
fn a_skip_is_expected_where_a_fragment_names_it() {
    let reason = "this processor has no AVX-512: its kernel is not tested here";
    assert!(expects("no AVX-512", reason));
    assert!(expects("no F16C| no AVX-512 |", reason));
    assert!(!expects("no AVX:|no F16C", reason));
    assert!(!expects("", reason));
    assert!(!expects("|", reason));
}
