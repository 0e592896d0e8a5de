#!/bin/sh
# An aarch64 Linux Python to run under qemu-user, for the aarch64 wheel's
# smoke suite (`make test-arm64-wheel`): Debian's arm64 python3.11 and the
# libraries it needs, unpacked into target/arm64-python/root (apt fetches
# them with a state of its own: the system's apt is not touched), and a
# virtual environment in target/arm64-python/venv with PyPI's aarch64
# wheels of numpy, the `openexr` package and pytest, and the wheel given.
#
# Usage: [PYTHON=python3] tools/cross/arm64-python.sh WHEEL (PYTHON: a Python with pip)
set -eu
wheel=${1:?usage: arm64-python.sh WHEEL}
here=$(cd "$(dirname "$0")" && pwd)
top=$here/../../target/arm64-python
mkdir -p "$top"
top=$(cd "$top" && pwd)
root=$top/root
export QEMU_LD_PREFIX=$root

# Debian's arm64 packages, once.
if [ ! -x "$root/usr/bin/python3.11" ]; then
    apt_dir=$top/apt
    mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/sources" "$apt_dir/debs"
    : > "$apt_dir/state/status"
    cp /etc/apt/sources.list.d/*.sources "$apt_dir/sources/" 2>/dev/null || true
    [ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$apt_dir/sources/system.list"
    set -- -o "Dir::State=$apt_dir/state" -o "Dir::State::status=$apt_dir/state/status" \
        -o "Dir::Cache=$apt_dir/cache" -o Dir::Etc::SourceList=/dev/null \
        -o "Dir::Etc::SourceParts=$apt_dir/sources" -o Dir::Etc::Preferences=/dev/null \
        -o "Dir::Etc::PreferencesParts=$apt_dir/sources" \
        -o APT::Architecture=arm64 -o APT::Architectures=arm64 -o Debug::NoDropPrivs=1 \
        -o APT::Sandbox::User=root
    apt-get "$@" -q update
    (cd "$apt_dir/debs" && apt-get "$@" -q download \
        python3.11-minimal libpython3.11-minimal libpython3.11-stdlib python3.11 \
        libc6 libgcc-s1 libstdc++6 zlib1g libexpat1 libffi8 libssl3 libbz2-1.0 liblzma5 \
        libsqlite3-0 libuuid1 libncursesw6 libtinfo6 libreadline8 libcrypt1 libdb5.3 \
        libgdbm6 libnsl2 libtirpc3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 \
        libkrb5support0 libcom-err2 libkeyutils1)
    rm -rf "$root.partial"
    for deb in "$apt_dir"/debs/*.deb; do
        dpkg -x "$deb" "$root.partial"
    done
    rm -rf "$root"
    mv "$root.partial" "$root"
fi

# PyPI's aarch64 wheels, once; pip itself runs from its own wheel.
wheels=$top/wheels
if [ ! -f "$wheels/.downloaded" ]; then
    "${PYTHON:-python3}" -m pip download --quiet --dest "$wheels" --only-binary=:all: --implementation cp \
        --python-version 3.11 --platform manylinux2014_aarch64 --platform manylinux_2_28_aarch64 \
        numpy "openexr>=3.5.3,<3.6" pytest pip
    touch "$wheels/.downloaded"
fi
pip=$(ls "$wheels"/pip-*.whl)/pip

rm -rf "$top/venv"
qemu-aarch64 "$root/usr/bin/python3.11" -m venv --without-pip "$top/venv"
qemu-aarch64 "$top/venv/bin/python" "$pip" install --quiet --no-index --find-links "$wheels" \
    numpy openexr pytest "$wheel"
