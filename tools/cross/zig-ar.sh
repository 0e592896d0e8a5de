#!/bin/sh
# zig's archiver for the zig-linked builds (see tools/cross/zig-cc.sh).
exec cargo-zigbuild zig ar -- "$@"
