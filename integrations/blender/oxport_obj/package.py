"""The oxport package the add-on uses: the copy its zip carries, or else one
installed beside Blender's Python; and numpy, where Blender has it."""

try:
    # The copy of the package that the add-on's zip carries (make blender-addon).
    from . import oxport
    from .oxport import blender as _blender  # noqa: F401  (oxport.blender)
except ImportError:
    # An oxport installed beside Blender's Python (development, pip).
    import oxport
    import oxport.blender

try:
    import numpy
except ImportError:  # Debian's Blender 3.4 has none
    numpy = None

__all__ = ["numpy", "oxport"]
