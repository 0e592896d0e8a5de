# Run by Blender: loads each OpenEXR file given after "--" and writes its
# pixels (Blender's float RGBA buffer, bottom row first) as float32 bytes
# to the path after it.
import sys

import bpy
import numpy as np

args = sys.argv[sys.argv.index("--") + 1:]
for source, target in zip(args[::2], args[1::2]):
    image = bpy.data.images.load(source)
    pixels = np.empty(image.size[0] * image.size[1] * 4, np.float32)
    image.pixels.foreach_get(pixels)
    pixels.tofile(target)
    print("OXPORT_LOADED", source, image.size[0], image.size[1], image.file_format)
