# Run by Blender: loads each OpenEXR file given after "--" and writes its
# pixels (Blender's float RGBA buffer, bottom row first) as float32 bytes
# to the path after it. (Debian's Blender has no numpy: array.array.)
import array
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
for source, target in zip(args[::2], args[1::2]):
    image = bpy.data.images.load(source)
    pixels = array.array("f", [0.0]) * (image.size[0] * image.size[1] * 4)
    image.pixels.foreach_get(pixels)
    with open(target, "wb") as f:
        pixels.tofile(f)
    print("OXPORT_LOADED", source, image.size[0], image.size[1], image.file_format)
