#!/bin/sh
# The linker and C compiler of the zig-linked builds (tools/dist.py): zig's,
# through cargo-zigbuild's `zig cc` (which adapts rustc's arguments), for
# OXPORT_ZIG_TARGET (aarch64-linux-gnu.2.17, x86_64-macos.10.12-none, ...).
#
# One path for the wheels (maturin), the tools and the tests alike: cargo
# rebuilds every crate whose target's linker path changed, and maturin's and
# cargo-zigbuild's own wrappers lie at different paths; both keep a linker
# (and CC_, AR_, RANLIB_) already set, so tools/dist.py sets these.
#
# Minus `-static`: ISA-L's build (isal-sys) runs autotools' configure with
# LDFLAGS=-static, whose test programs zig refuses to link for a glibc
# target ("libc of the specified target requires dynamic linking"); the
# library itself is an archive, linked by nothing until the program or the
# extension module is, so dropping the flag changes no object.
for arg do
    shift
    [ "$arg" = -static ] || set -- "$@" "$arg"
done
exec cargo-zigbuild zig cc -- -g -fno-sanitize=all -target "${OXPORT_ZIG_TARGET:?set by tools/dist.py}" "$@"
