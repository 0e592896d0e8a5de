#!/bin/sh
# cargo's runner for aarch64-unknown-linux-gnu (.cargo/config.toml): runs
# an aarch64 Linux program under qemu-user, its libraries from the cross
# toolchain's sysroot (Debian's libc6-arm64-cross) unless QEMU_LD_PREFIX
# names another.
#
# OXPORT_TEST_EMULATED=1 tells the tests that sweep millions of values to
# check a sample (emulation is 30 to 50 times slower); OXPORT_TEST_RUNNER
# has the command line tool's tests start the tool under qemu-user too (the
# kernel here has no binfmt_misc entry that would).
set -eu
export OXPORT_TEST_EMULATED=1
export OXPORT_TEST_RUNNER=qemu-aarch64
export QEMU_LD_PREFIX="${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}"
exec qemu-aarch64 "$@"
