#!/bin/sh
# The C compiler of `make wheel`: zig's, as maturin sets it up for the target
# glibc, minus `-static`. ISA-L's build (isal-sys) runs autotools' configure
# with LDFLAGS=-static, whose test programs zig refuses to link for a glibc
# target ("libc of the specified target requires dynamic linking"); the
# library itself is an archive, linked by nothing until the extension module
# is, so dropping the flag changes no object. The Makefile hands this script
# to the cc crate as CC_x86_64-unknown-linux-gnu, which it reads before the
# CC_x86_64_unknown_linux_gnu that maturin sets to zig's wrapper.
for arg do
    shift
    [ "$arg" = -static ] || set -- "$@" "$arg"
done
exec "${CC_x86_64_unknown_linux_gnu:?set by maturin --zig}" "$@"
