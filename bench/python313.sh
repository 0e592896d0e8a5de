#!/bin/sh
# A Python 3.13 for the benchmarks that need one (rapidobj's wheels require
# Python >= 3.12; the project's own interpreter is 3.11). CPython is built from
# Debian's source archive (the same release Debian 13 ships), checked against
# the SHA-256 of Debian's source index, into target/python313, with a venv in
# target/bench-venv313. Prints the venv's python. Does nothing when it exists.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PREFIX="$ROOT/target/python313"
VENV="$ROOT/target/bench-venv313"
VERSION=3.13.5
TARBALL="python3.13_$VERSION.orig.tar.xz"
SHA256=93e583f243454e6e9e4588ca2c2662206ad961659863277afcdb96801647d640

if [ ! -x "$PREFIX/bin/python3.13" ]; then
    BUILD="$ROOT/target/python313-build"
    rm -rf "$BUILD"
    mkdir -p "$BUILD"
    cd "$BUILD"
    curl -fsS -o "$TARBALL" "http://deb.debian.org/debian/pool/main/p/python3.13/$TARBALL"
    echo "$SHA256  $TARBALL" | sha256sum -c - >&2
    tar xJf "$TARBALL"
    cd "Python-$VERSION"
    ./configure --prefix="$PREFIX" --with-ensurepip=install >&2
    make -j"$(nproc)" >&2
    make install >&2
    cd "$ROOT"
    rm -rf "$BUILD"
fi
if [ ! -x "$VENV/bin/python" ]; then
    "$PREFIX/bin/python3.13" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
fi
"$VENV/bin/python" -m pip install --quiet numpy rapidobj >&2
echo "$VENV/bin/python"
