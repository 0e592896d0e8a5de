#!/bin/sh
# cargo's runner for x86_64-pc-windows-gnu (.cargo/config.toml): runs a
# Windows program under Wine, in a Wine prefix of the project's own
# (target/wine) unless WINEPREFIX names one.
#
# Debian's Wine 8.0 lacks ProcessPrng (bcryptprimitives.dll), which Rust's
# standard library calls for random bytes; the test-only DLL of
# processprng.c is built once and found through WINEPATH by the program and
# by every program it starts. Nothing of it ships.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
target=${CARGO_TARGET_DIR:-$here/../../target}
mkdir -p "$target/wine"
target=$(cd "$target" && pwd)
shim_dir=$target/wine/dlls
if [ ! -f "$shim_dir/bcryptprimitives.dll" ] || [ "$here/processprng.c" -nt "$shim_dir/bcryptprimitives.dll" ]; then
    mkdir -p "$shim_dir"
    x86_64-w64-mingw32-gcc -O2 -shared -s -o "$shim_dir/bcryptprimitives.dll.tmp" "$here/processprng.c" -ladvapi32
    mv "$shim_dir/bcryptprimitives.dll.tmp" "$shim_dir/bcryptprimitives.dll"
fi
wine=$(command -v wine64 || command -v wine || echo /usr/lib/wine/wine64)
export WINEPREFIX="${WINEPREFIX:-$target/wine/prefix}"
export WINEDEBUG="${WINEDEBUG:--all}"
# No Mono or Gecko installers on the prefix's first start.
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=}"
export WINEPATH="$(winepath_dir=$shim_dir; echo "Z:$winepath_dir" | tr / '\\')${WINEPATH:+;$WINEPATH}"
exec "$wine" "$@"
