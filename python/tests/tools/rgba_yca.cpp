// OpenEXR's own RGB <-> luminance/chroma conversion, for the tests of
// oxport.exr's: RgbaInputFile reads a luminance/chroma file as RGBA;
// RgbaOutputFile writes RGBA as luminance/chroma.
//
//   rgba_yca read  IN.exr OUT.raw   RGBA halves, row after row, of IN
//   rgba_yca write IN.raw WIDTH HEIGHT OUT.exr
//                                   RGBA halves to Y, RY, BY, A (no compression)
#include <ImfArray.h>
#include <ImfRgbaFile.h>
#include <ImfHeader.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <vector>

int main (int argc, char** argv)
{
    if (argc == 4 && std::strcmp (argv[1], "read") == 0)
    {
        Imf::RgbaInputFile in (argv[2]);
        Imath::Box2i dw = in.dataWindow ();
        int w = dw.max.x - dw.min.x + 1, h = dw.max.y - dw.min.y + 1;
        std::vector<Imf::Rgba> pixels (size_t (w) * h);
        in.setFrameBuffer (pixels.data () - dw.min.x - size_t (dw.min.y) * w, 1, w);
        in.readPixels (dw.min.y, dw.max.y);
        std::ofstream out (argv[3], std::ios::binary);
        out.write ((const char*) pixels.data (), pixels.size () * sizeof (Imf::Rgba));
        return out ? 0 : 1;
    }
    if (argc == 6 && std::strcmp (argv[1], "write") == 0)
    {
        int w = std::atoi (argv[3]), h = std::atoi (argv[4]);
        std::vector<Imf::Rgba> pixels (size_t (w) * h);
        std::ifstream in (argv[2], std::ios::binary);
        in.read ((char*) pixels.data (), pixels.size () * sizeof (Imf::Rgba));
        if (!in) return 1;
        Imf::Header header (w, h);
        header.compression () = Imf::NO_COMPRESSION;
        Imf::RgbaOutputFile out (argv[5], header, Imf::WRITE_YCA);
        out.setFrameBuffer (pixels.data (), 1, w);
        out.writePixels (h);
        return 0;
    }
    std::cerr << "usage: rgba_yca read IN.exr OUT.raw | write IN.raw W H OUT.exr\n";
    return 2;
}
