#!/bin/sh
# The C compiler of the zig-linked builds (`make dist`): zig's, as maturin
# or cargo-zigbuild set it up for the target (CC_<target> with underscores),
# minus `-static`. ISA-L's build (isal-sys) runs autotools' configure with
# LDFLAGS=-static, whose test programs zig refuses to link for a glibc
# target ("libc of the specified target requires dynamic linking"); the
# library itself is an archive, linked by nothing until the program or the
# extension module is, so dropping the flag changes no object. tools/dist.py
# hands this script to the cc crate as CC_<target> with dashes, which it
# reads before the underscored name that maturin and cargo-zigbuild set.
target=$(printf '%s' "${TARGET:?set by cargo for build scripts}" | tr -- '-.' '__')
eval "zig_cc=\${CC_$target:?set by maturin --zig or cargo zigbuild}"
for arg do
    shift
    [ "$arg" = -static ] || set -- "$@" "$arg"
done
exec "$zig_cc" "$@"
