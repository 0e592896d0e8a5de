#!/bin/sh
# zig's ranlib for the zig-linked builds (see tools/cross/zig-cc.sh).
exec cargo-zigbuild zig ranlib -- "$@"
