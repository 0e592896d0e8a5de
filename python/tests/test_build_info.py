"""oxport.build_info(): what this build of the extension has."""

from __future__ import annotations

import oxport


def test_build_info_names_the_engines() -> None:
    info = oxport.build_info()
    assert info.version == oxport.__version__
    assert info.zstd_version.count(".") == 2
    assert list(info.engines) == ["isal", "direct"]
    assert all(isinstance(on, bool) for on in info.engines.values())
    text = str(info)
    assert text.startswith(f"oxport {oxport.__version__}\n")
    for name, on in info.engines.items():
        assert f"{'+' if on else '-'}{name}: " in text
    assert repr(info).startswith("BuildInfo(version=")
