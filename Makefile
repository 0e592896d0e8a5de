# The README's commands. Everything installs what it needs into ./.venv.
# `make demo` runs the main job; `make test` runs every test.

PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
CARGO ?= cargo

# Optional accelerators, built where their tools are present (`oxport
# --version` and `oxport.build_info()` say what a build has): ISA-L's igzip
# needs nasm and autotools, ZFP's generated bindings libclang. `make ISAL=`
# leaves one out; CI names both, so that a missing tool fails loudly.
have = $(shell command -v $(1) >/dev/null 2>&1 && echo yes)
ISAL ?= $(if $(and $(call have,nasm),$(call have,autoreconf),$(call have,automake),$(call have,libtoolize)),isal)
ZFP ?= $(if $(shell ldconfig -p 2>/dev/null | grep -q 'libclang\(-[0-9.]*\)\?\.so' && echo yes),zfp)
# The command line tool takes both; the Python package has no use for ZFP
# (a codec of the filter lab, crates/oxport-lab, which only the CLI has).
CLI_FEATURES := $(strip $(ISAL) $(ZFP))
PY_FEATURES := $(strip $(ISAL))
comma := ,
LIB_FEATURES := $(subst $(eval) ,$(comma),$(strip $(if $(ISAL),oxport/isal) $(if $(ZFP),oxport-lab/zfp)))

.PHONY: test-aarch64 test-lane-checks test-lane-dist test-lane-python test-lane-platforms msrv bpy-venvs test-models cli dist dist-module wheel test-wheel test-cross test-arm64-wheel test-dist test-default-deps bench-codecs bench-color bench-dask bench-remote bench-exr bench-exr-lab bench-seekable blender-addon blender-test demo test test-rust test-python lint build venv bench bench-numfmt bench-obj bench-read exhaustive fuzz-build clean

demo:
	$(CARGO) run --release -p oxport-cli --features "$(CLI_FEATURES)" -- demo

# Every test, in two lanes at a time so that both of a machine's cores stay
# busy (where one lane waits on a single thread, a link, a test run under
# Wine, the other's build takes the idle core): the checks of target/debug
# and fuzz/ beside `make dist`; then, on what dist built, the Python tests
# beside the other platforms' (Wine, qemu, the archives). Each lane runs its
# targets in order and the lanes share no folder; dist and the Blender venvs
# are made once, by the first pair. The Python tests install dist's Linux
# extension into Blender (OXPORT_DIST) instead of building one more wheel.
test:
	$(MAKE) --no-print-directory -j2 test-lane-checks test-lane-dist
	$(MAKE) --no-print-directory -j2 test-lane-python test-lane-platforms
test-lane-checks:
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory test-default-deps
	$(MAKE) --no-print-directory test-rust
	$(MAKE) --no-print-directory fuzz-build
test-lane-dist:
	$(MAKE) --no-print-directory dist
	$(MAKE) --no-print-directory bpy-venvs
test-lane-python:
	$(MAKE) --no-print-directory -o dist -o bpy-venvs test-python
	$(MAKE) --no-print-directory -o dist test-wheel
test-lane-platforms:
	$(MAKE) --no-print-directory -o dist test-cross
	$(MAKE) --no-print-directory -o dist test-arm64-wheel
	$(MAKE) --no-print-directory -o dist -o bpy-venvs test-dist
test: export OXPORT_DIST = $(CURDIR)/dist
test: export PYTHON_UNDER_TEST = dist-module
# The release builds `make test` makes and tests (dist/, and the Windows
# tests built beside them) skip link-time optimization: the same
# code, each target's link minutes shorter; `make dist` alone builds what
# ships, with it.
test: export CARGO_PROFILE_RELEASE_LTO = off
# Nor line tables in its test builds: a failing test's panic names its file
# and line without them, and each compile and link is shorter.
test: export CARGO_PROFILE_DEV_DEBUG = false
# Nothing runs the macOS programs here (test-dist inspects them): `make test`
# builds them without optimization, in a fraction of the time, and for arm64
# alone (x86_64's is the same build for the other processor: `make dist`
# builds it, `make test-dist` after it inspects it).
test: export DIST_FLAGS = --inspect-only macos
test: export OXPORT_DIST_TARGETS = x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu x86_64-pc-windows-gnu aarch64-apple-darwin

# A test whose precondition is missing skips, saying why, and `make test`
# fails on a skip it does not expect: OXPORT_EXPECTED_SKIPS holds the skips
# a run expects, fragments of their reasons separated by | (the rule is
# python/testing/expected_skips.py's and crates/oxport/src/testing.rs's;
# unset, a skip is a skip). `make test` expects those this machine explains,
# a SIMD kernel whose instructions the processor lacks; the suites that run
# elsewhere (`expect`) add theirs.
cpu_lacks = $(if $(shell grep -qw $(1) /proc/cpuinfo 2>/dev/null && echo yes),,$(2)|)
test: export OXPORT_EXPECTED_SKIPS ?= $(call cpu_lacks,avx,no AVX:)$(call cpu_lacks,f16c,no F16C)$(call cpu_lacks,avx512f,no AVX-512)
expect = $(if $(filter undefined,$(origin OXPORT_EXPECTED_SKIPS)),,OXPORT_EXPECTED_SKIPS="$(OXPORT_EXPECTED_SKIPS)|$(1)")

# Clippy on the default build's libraries and programs and on every target
# of the one with the accelerators and abi3 (the default build's tests are
# compiled and run on Windows by test-cross); the libraries' documentation
# (every public item has some: missing_docs) without a broken link.
LINT_FEATURES := oxport-python/abi3,oxport/bench$(if $(LIB_FEATURES),$(comma)$(LIB_FEATURES))
lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --lib --bins -- -D warnings
	$(CARGO) clippy --workspace --all-targets --features "$(LINT_FEATURES)" -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --workspace --lib --features "$(LINT_FEATURES)"

# The declared minimum Rust (Cargo.toml's rust-version) builds the workspace.
MSRV := $(shell sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
msrv:
	rustup toolchain install $(MSRV) --profile minimal
	$(CARGO) +$(MSRV) check --workspace --target-dir target/msrv

# The default build needs Rust and a C compiler only: neither bindgen (libclang)
# nor ISA-L (nasm, autotools) nor aws-lc (CMake; object storage's TLS runs on
# ring) may be in its dependency graph.
test-default-deps:
	for package in oxport-cli oxport-python; do \
		if $(CARGO) tree -p $$package -e normal,build --prefix none | grep -E '^(bindgen|isal-sys|aws-lc-sys|aws-lc-rs|cmake) '; then \
			echo "$$package: the default build depends on the crates above"; exit 1; \
		fi; \
	done

# Every test, with the accelerators this machine builds, turned on through
# the command line tool's features (ISA-L: the codec tests' other engine;
# ZFP: the lab's codec; its tests expect what it was built with); then again, in the same build,
# with every SIMD kernel's run-time choice turned to its portable fallback
# (OXPORT_PORTABLE=1, as meshoptimizer's scalar build). One build for both
# runs: a build of other features compiles every test anew. The default
# build without ISA-L is compiled by `lint` and tested on Windows (`test-cross`,
# where ISA-L does not build).
TEST_FEATURES := $(if $(CLI_FEATURES),--features "$(subst $(eval) ,$(comma),$(addprefix oxport-cli/,$(CLI_FEATURES)))")
test-rust:
	$(CARGO) test --workspace $(TEST_FEATURES)
	OXPORT_PORTABLE=1 $(CARGO) test --workspace --lib --tests $(TEST_FEATURES)

# Every fuzz target builds (with the stable toolchain, without coverage
# instrumentation), the seeds replay through the targets' checks (`cargo
# test` in fuzz/), and each target runs a few thousand inputs; real fuzzing
# is `cargo +nightly fuzz run TARGET` in fuzz/ (see fuzz/README.md).
FUZZ_TARGETS := $(shell sed -n 's/^name = "\(.*\)"/\1/p' fuzz/Cargo.toml | grep -v oxport-fuzz)
fuzz-build:
	$(CARGO) build --manifest-path fuzz/Cargo.toml --release --bins $(if $(ISAL),--features isal)
	$(CARGO) test --manifest-path fuzz/Cargo.toml --release $(if $(ISAL),--features isal)
	for target in $(FUZZ_TARGETS); do \
		mkdir -p fuzz/corpus/$$target; \
		if [ -d fuzz/seeds/$$target ]; then cp fuzz/seeds/$$target/* fuzz/corpus/$$target/; fi; \
		fuzz/target/release/$$target -runs=5000 -seed=1 fuzz/corpus/$$target || exit 1; \
	done

venv: $(VENV)/.installed

# The reference for oxport.zstd binds the zstd release zstd-sys bundles (1.6.0):
# move the two together, or byte comparisons compare two libraries.
ZSTD_REFERENCE = "backports.zstd==1.8.1"

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet "maturin>=1.9.4,<2" numpy pytest hypothesis mypy pyzstd fsspec aiohttp $(ZSTD_REFERENCE) "openexr>=3.5.3,<3.6" "openimageio>=3.1,<3.3" "coloraide>=8.13,<9" "dask[array,bag,distributed]>=2024.8" "moto[server]>=5.1,<6" s3fs
	touch $@

# Builds the extension in release mode and installs the package into the venv
# (editable): a module for this Python, as `pip install .` builds (the abi3
# module of the wheel is linted by `lint` and run by `test-wheel`), with the
# accelerators present.
build: venv
	$(VENV)/bin/maturin develop --release --quiet $(if $(PY_FEATURES),--features "$(PY_FEATURES)")

# Blender 4.5 LTS and 5.0 as Python modules (PyPI's bpy, for Python 3.11
# only), one venv each: the add-on is checked against each version's own
# exporter, beside Debian's Blender 3.4.
# Without Python 3.11 (the only one bpy is built for) the venvs are left
# out and those checks skip (which `make test` does not expect).
BPY_PYTHON ?= python3.11
# OBJ files of another project's test suite (tinyobjloader's edge cases:
# bad indices, NaNs, mixed face layouts, points, materials in odd places),
# from its source distribution on PyPI: the importer is compared with
# Blender's on each.
TINYOBJLOADER := tinyobjloader==2.0.0rc13
test-models: target/test-models/.installed
target/test-models/.installed:
	rm -rf target/test-models && mkdir -p target/test-models
	$(PYTHON) -m pip download --quiet --no-deps --no-binary :all: "$(TINYOBJLOADER)" -d target/test-models
	tar -xzf target/test-models/tinyobjloader-*.tar.gz -C target/test-models
	mv target/test-models/tinyobjloader-*/models target/test-models/tinyobjloader
	rm -rf target/test-models/tinyobjloader-*
	touch $@

bpy-venvs:
	@if command -v $(BPY_PYTHON) >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory .venv-bpy45/.installed .venv-bpy50/.installed; \
	else \
		echo "$(BPY_PYTHON) not found: the Blender 4.5 and 5.0 checks are skipped"; \
	fi

.venv-bpy45/.installed:
	$(BPY_PYTHON) -m venv .venv-bpy45
	.venv-bpy45/bin/python -m pip install --quiet "bpy==4.5.*"
	touch $@

.venv-bpy50/.installed:
	$(BPY_PYTHON) -m venv .venv-bpy50
	.venv-bpy50/bin/python -m pip install --quiet "bpy==5.0.1"
	touch $@

# `make test` runs the Python tests with what `make dist` built for Linux
# x86_64 instead of building both once more: its tool (OXPORT_CLI) and its
# abi3 module, put into python/oxport with the package on the venv's path
# (dist-module, as `maturin develop` does); alone, `make test-python` builds
# them (target/release/oxport, `make build`). The Blender tests load the
# package from python/.
PYTHON_UNDER_TEST ?= build cli
ifeq ($(PYTHON_UNDER_TEST),dist-module)
test-python: export OXPORT_CLI = $(CURDIR)/target/x86_64-unknown-linux-gnu/release/oxport
endif

dist-module: venv dist
	$(VPY) tools/dist_module.py "$$(ls dist/oxport-*-abi3-manylinux*_x86_64.whl)"

cli:
	$(CARGO) build --release -p oxport-cli --features "$(CLI_FEATURES)"

test-python: $(PYTHON_UNDER_TEST) bpy-venvs test-models
	$(VPY) -m mypy.stubtest oxport._native --allowlist python/stubtest-allowlist.txt
	$(VPY) -m mypy --strict python/oxport
	$(VPY) -m pytest python/tests -q

# What oxport ships, for Linux x86_64 and aarch64, Windows x86_64 and macOS
# arm64 and x86_64 (tools/dist.py): an abi3 wheel each (CPython 3.10 and
# later, 3.11 on Windows) and one for CPython 3.9 on Linux x86_64 (abi3 for
# 3.9 would pass every call's arguments through a tuple and a dict, about
# 200 ns more a call: docs/benchmarks.md), each with the command line tool;
# the tool alone for each; the Blender extension per platform and the
# legacy zip; the sdist. All into dist/. Linux and macOS are linked by zig
# (glibc 2.17; macOS 11 on arm64, 10.12 on x86_64), Windows by mingw-w64.
# The platforms whose tests run here: Windows under Wine, aarch64 Linux under qemu-user.
CROSS_TARGETS := x86_64-pc-windows-gnu aarch64-unknown-linux-gnu
PYENV_ROOT ?= $(or $(shell pyenv root 2>/dev/null),$(HOME)/.pyenv)
NEWEST_PYTHON ?= $(lastword $(sort $(wildcard $(PYENV_ROOT)/versions/3.13*/bin/python3)))
OLDEST_PYTHON ?= $(lastword $(sort $(wildcard $(PYENV_ROOT)/versions/3.9*/bin/python3)))
DIST_TOOLS := "ziglang>=0.13" "auditwheel>=6" "cargo-zigbuild>=0.20"
dist: venv
	@test -n "$(OLDEST_PYTHON)" || { echo "dist: needs Python 3.9 for its wheel (pyenv install 3.9, or OLDEST_PYTHON=...)"; exit 1; }
	$(VPY) -m pip install --quiet $(DIST_TOOLS)
	rustup target add $(CROSS_TARGETS) aarch64-apple-darwin x86_64-apple-darwin
	rm -rf dist
	$(VPY) tools/dist.py $(if $(ISAL),--isal) --python39 $(OLDEST_PYTHON) $(DIST_FLAGS) $(addprefix --target ,$(OXPORT_DIST_TARGETS))

# Linux x86_64's wheels alone (the abi3 one and the 3.9 one), and the sdist.
wheel: venv
	@test -n "$(OLDEST_PYTHON)" || { echo "wheel: needs Python 3.9 for its wheel (pyenv install 3.9, or OLDEST_PYTHON=...)"; exit 1; }
	$(VPY) -m pip install --quiet $(DIST_TOOLS)
	$(VPY) tools/dist.py $(if $(ISAL),--isal) --python39 $(OLDEST_PYTHON) --only wheels --only sdist --target x86_64-unknown-linux-gnu

# The library's and the command line tool's tests on Windows (under Wine),
# in the release build `make dist` made for it: only the tests compiled
# anew. test-aarch64: the library's own on aarch64 Linux (under qemu-user,
# its NEON kernels and codecs: minutes under emulation, not in `make test`, where
# the aarch64 wheel's suite runs instead: test-arm64-wheel). (macOS is built
# and inspected by test-dist, not run.)
test-cross: dist
	$(call expect,no /dev/full) $(VPY) tools/dist.py $(if $(ISAL),--isal) --only tests --target x86_64-pc-windows-gnu

test-aarch64: dist
	$(VPY) tools/dist.py $(if $(ISAL),--isal) --only tests --target aarch64-unknown-linux-gnu

# The aarch64 wheel's smoke suite in Debian's arm64 Python under qemu-user,
# with numpy's and the openexr package's aarch64 wheels (DWA's pixels and
# bytes compared with the package's); its `oxport` command too.
ARM64_PYTHON := $(CURDIR)/target/arm64-python
test-arm64-wheel: dist
	PYTHON=$(VPY) tools/cross/arm64-python.sh "$$(ls dist/oxport-*-abi3-*_aarch64.whl)"
	cd target && env -i HOME="$$HOME" PATH=/usr/bin:/bin QEMU_LD_PREFIX=$(ARM64_PYTHON)/root \
		OXPORT_TEST_RUNNER=qemu-aarch64 OXPORT_EXPECT_ENGINES="$(PY_FEATURES)" $(call expect,) \
		qemu-aarch64 $(ARM64_PYTHON)/venv/bin/python -m pytest -q -p no:cacheprovider -k "not dask" ../python/smoke

# What dist/ holds, platform by platform (python/dist): names, contents,
# processors, what each binary links; each tool's bytes against the Linux
# x86_64 tool's (Windows under Wine, given Windows paths; aarch64 under qemu).
test-dist: dist bpy-venvs
	$(call expect,macOS programs are built and inspected here) $(VPY) -m pytest -q -p no:cacheprovider python/dist

# The wheels in fresh virtual environments of other Pythons than the one
# that built them, with no Rust toolchain on PATH: the smoke suite on 3.13
# (the abi3 wheel) with the `dask` extra installed from the wheel, and on 3.9
# (its own wheel; without the extra: Dask needs 3.10).
SMOKE = cd target && env -i HOME="$$HOME" PATH=/usr/bin:/bin OXPORT_EXPECT_ENGINES="$(PY_FEATURES)" \
	$(call expect,the openexr package is the reference) \
	$(1)/bin/python -m pytest -q -p no:cacheprovider $(2) ../python/smoke
test-wheel: dist
	@test -n "$(NEWEST_PYTHON)" || { echo "test-wheel: needs Python 3.13 (pyenv install 3.13, or NEWEST_PYTHON=...)"; exit 1; }
	rm -rf target/wheel-newest target/wheel-oldest
	$(NEWEST_PYTHON) -m venv target/wheel-newest
	target/wheel-newest/bin/python -m pip install --quiet --only-binary=:all: "$$(ls dist/oxport-*-abi3-manylinux*_x86_64.whl)[dask]" pytest
	$(call SMOKE,wheel-newest,)
	$(OLDEST_PYTHON) -m venv target/wheel-oldest
	target/wheel-oldest/bin/python -m pip install --quiet --only-binary=:all: "$$(ls dist/oxport-*-cp39-cp39-*.whl)" pytest
	$(call SMOKE,wheel-oldest,-k "not dask")

# The exhaustive f32 test: all 2^32 values against glibc (minutes).
exhaustive:
	$(CARGO) test --release -p oxport --features exhaustive --test numfmt_exhaustive

bench: bench-numfmt bench-obj bench-read bench-blender bench-seekable bench-codecs bench-exr bench-color bench-dask bench-remote

bench-numfmt: venv
	$(VPY) -m pip install --quiet matplotlib
	$(VPY) bench/numfmt.py

bench-obj: build
	$(VPY) -m pip install --quiet trimesh
	$(VPY) bench/obj_write.py
	$(VPY) bench/obj_memory.py

# OBJ import against rapidobj (in a Python 3.13 venv built by bench/python313.sh), tinyobjloader and trimesh.
bench-read: build
	$(VPY) -m pip install --quiet trimesh tinyobjloader==2.0.0rc13
	$(VPY) bench/obj_read.py

clean:
	$(CARGO) clean
	rm -rf $(VENV)

# Seekable archives against zstd, Blender's compressed save, pyzstd and indexed_zstd.
bench-seekable: build
	$(VPY) -m pip install --quiet pyzstd indexed_zstd
	$(VPY) bench/seekable.py

# The installable add-on for this machine: dist/oxport_obj-VERSION-linux_x64.zip, the
# extension for Blender 4.2+, and dist/oxport_obj-VERSION-legacy.zip for 3.4 to 4.1
# (integrations/blender/build.py; `make dist` makes every platform's).
blender-addon: venv
	$(VPY) integrations/blender/build.py

# The Blender add-on against Blender's own exporter (part of `make test` when Blender is installed).
blender-test: build bpy-venvs
	$(VPY) -m pytest python/tests/test_blender_addon.py python/tests/test_blender_import.py -q

# Export and import against Blender's own, on Blender 3.4 and 5.0.
bench-blender: build bpy-venvs
	$(VPY) bench/blender_addon.py

# oxport.zstd and oxport.deflate against the stdlib (backports.zstd, zlib), zstandard, pyzstd, cramjam, deflate and isal.
bench-codecs: build
	$(VPY) -m pip install --quiet $(ZSTD_REFERENCE) zstandard pyzstd cramjam deflate isal
	$(VPY) bench/codecs.py

# OpenEXR against the openexr package (renders a 960x540 Cycles image once, about a minute).
bench-exr: build
	$(VPY) bench/exr.py

# A 200-frame batch on a Dask LocalCluster against the single-process loop (docs/guide/scale.md).
bench-dask: build
	$(VPY) bench/scale.py

bench-remote: build
	$(VPY) bench/remote.py

# Color conversions and gradient samples against colour-science and coloraide.
bench-color: build
	$(VPY) -m pip install --quiet colour-science
	$(VPY) bench/color.py

# The filter lab on two Cycles renders: the chart and the table in docs/benchmarks.md.
bench-exr-lab: build
	$(VPY) bench/exr_lab.py
