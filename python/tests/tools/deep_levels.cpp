// Deep tiled files with mipmap or ripmap levels through OpenEXR's own
// library, for the tests of oxport.exr's (the openexr package writes only
// a deep tiled part's first level):
//
//   deep_levels write OUT.exr WIDTH HEIGHT TILE_W TILE_H mipmap|ripmap down|up none|rle|zips
//       A (half), Z (float) and id (uint) channels; at pixel (x, y) of level
//       (lx, ly), (x + 2y + lx + 3ly) % 4 samples, sample k holding
//       v = 1000 lx + 100 ly + 10 y + x + k / 4 (Z: v, A: v / 64, id: v * 4)
//   deep_levels read IN.exr OUTDIR
//       for every level (lx, ly): OUTDIR/LX_LY.counts (a u32 per pixel, row
//       after row) and OUTDIR/LX_LY.NAME per channel (every pixel's samples in
//       turn, little-endian)
#include <ImfChannelList.h>
#include <ImfDeepFrameBuffer.h>
#include <ImfDeepTiledInputFile.h>
#include <ImfDeepTiledOutputFile.h>
#include <ImfHeader.h>
#include <ImfPartType.h>
#include <ImfTileDescription.h>
#include <half.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace
{

size_t
sample_size (Imf::PixelType type)
{
    return type == Imf::HALF ? 2 : 4;
}

// Every level the file has: the diagonal of a mipmap, the grid of a ripmap.
template <class File>
std::vector<std::pair<int, int>>
levels_of (const File& file)
{
    std::vector<std::pair<int, int>> out;
    for (int ly = 0; ly < file.numYLevels (); ++ly)
        for (int lx = 0; lx < file.numXLevels (); ++lx)
            if (file.isValidLevel (lx, ly)) out.emplace_back (lx, ly);
    return out;
}

int
write (char** argv)
{
    int w = std::atoi (argv[3]), h = std::atoi (argv[4]);
    int tw = std::atoi (argv[5]), th = std::atoi (argv[6]);
    Imf::LevelMode mode =
        std::strcmp (argv[7], "ripmap") == 0 ? Imf::RIPMAP_LEVELS : Imf::MIPMAP_LEVELS;
    Imf::LevelRoundingMode rounding =
        std::strcmp (argv[8], "up") == 0 ? Imf::ROUND_UP : Imf::ROUND_DOWN;
    Imf::Compression method = std::strcmp (argv[9], "rle") == 0    ? Imf::RLE_COMPRESSION
                              : std::strcmp (argv[9], "zips") == 0 ? Imf::ZIPS_COMPRESSION
                                                                   : Imf::NO_COMPRESSION;
    Imf::Header header (w, h);
    header.setType (Imf::DEEPTILE);
    header.setTileDescription (Imf::TileDescription (tw, th, mode, rounding));
    header.compression () = method;
    header.channels ().insert ("A", Imf::Channel (Imf::HALF));
    header.channels ().insert ("Z", Imf::Channel (Imf::FLOAT));
    header.channels ().insert ("id", Imf::Channel (Imf::UINT));
    Imf::DeepTiledOutputFile file (argv[2], header);
    for (auto [lx, ly]: levels_of (file))
    {
        Imath::Box2i dw = file.dataWindowForLevel (lx, ly);
        int lw = dw.max.x - dw.min.x + 1, lh = dw.max.y - dw.min.y + 1;
        size_t n = size_t (lw) * lh;
        std::vector<unsigned> counts (n);
        std::vector<std::vector<half>> a (n);
        std::vector<std::vector<float>> z (n);
        std::vector<std::vector<unsigned>> id (n);
        std::vector<half*> a_at (n);
        std::vector<float*> z_at (n);
        std::vector<unsigned*> id_at (n);
        for (int y = 0; y < lh; ++y)
            for (int x = 0; x < lw; ++x)
            {
                size_t i = size_t (y) * lw + x;
                counts[i] = unsigned (x + 2 * y + lx + 3 * ly) % 4;
                for (unsigned k = 0; k < counts[i]; ++k)
                {
                    float v = 1000.0f * lx + 100.0f * ly + 10.0f * y + x + k / 4.0f;
                    z[i].push_back (v);
                    a[i].push_back (half (v / 64.0f));
                    id[i].push_back (unsigned (v * 4.0f));
                }
                a_at[i]  = a[i].data ();
                z_at[i]  = z[i].data ();
                id_at[i] = id[i].data ();
            }
        size_t origin = size_t (dw.min.x) + size_t (dw.min.y) * lw;
        Imf::DeepFrameBuffer fb;
        fb.insertSampleCountSlice (Imf::Slice (
            Imf::UINT, (char*) (counts.data () - origin), sizeof (unsigned),
            sizeof (unsigned) * lw));
        fb.insert ("A", Imf::DeepSlice (Imf::HALF, (char*) (a_at.data () - origin),
                                        sizeof (half*), sizeof (half*) * lw, sizeof (half)));
        fb.insert ("Z", Imf::DeepSlice (Imf::FLOAT, (char*) (z_at.data () - origin),
                                        sizeof (float*), sizeof (float*) * lw, sizeof (float)));
        fb.insert ("id", Imf::DeepSlice (Imf::UINT, (char*) (id_at.data () - origin),
                                         sizeof (unsigned*), sizeof (unsigned*) * lw,
                                         sizeof (unsigned)));
        file.setFrameBuffer (fb);
        file.writeTiles (0, file.numXTiles (lx) - 1, 0, file.numYTiles (ly) - 1, lx, ly);
    }
    return 0;
}

int
read (char** argv)
{
    Imf::DeepTiledInputFile file (argv[2]);
    const Imf::ChannelList& channels = file.header ().channels ();
    std::string dir = argv[3];
    for (auto [lx, ly]: levels_of (file))
    {
        Imath::Box2i dw = file.dataWindowForLevel (lx, ly);
        int lw = dw.max.x - dw.min.x + 1, lh = dw.max.y - dw.min.y + 1;
        size_t n = size_t (lw) * lh, origin = size_t (dw.min.x) + size_t (dw.min.y) * lw;
        std::vector<unsigned> counts (n);
        Imf::DeepFrameBuffer fb;
        fb.insertSampleCountSlice (Imf::Slice (
            Imf::UINT, (char*) (counts.data () - origin), sizeof (unsigned),
            sizeof (unsigned) * lw));
        size_t total = 0;
        std::vector<std::vector<char>> samples;
        std::vector<std::vector<char*>> at;
        std::vector<std::string> names;
        for (auto c = channels.begin (); c != channels.end (); ++c)
        {
            names.push_back (c.name ());
            samples.emplace_back ();
            at.emplace_back (n);
        }
        file.setFrameBuffer (fb);
        int nx = file.numXTiles (lx) - 1, ny = file.numYTiles (ly) - 1;
        file.readPixelSampleCounts (0, nx, 0, ny, lx, ly);
        for (unsigned c: counts) total += c;
        int index = 0;
        for (auto c = channels.begin (); c != channels.end (); ++c, ++index)
        {
            size_t size = sample_size (c.channel ().type);
            samples[index].resize (total * size);
            size_t offset = 0;
            for (size_t i = 0; i < n; ++i)
            {
                at[index][i] = samples[index].data () + offset * size;
                offset += counts[i];
            }
            fb.insert (c.name (), Imf::DeepSlice (c.channel ().type,
                                                  (char*) (at[index].data () - origin),
                                                  sizeof (char*), sizeof (char*) * lw, size));
        }
        file.setFrameBuffer (fb);
        file.readTiles (0, nx, 0, ny, lx, ly);
        std::string stem = dir + "/" + std::to_string (lx) + "_" + std::to_string (ly);
        std::ofstream (stem + ".counts", std::ios::binary)
            .write ((const char*) counts.data (), counts.size () * sizeof (unsigned));
        for (size_t c = 0; c < names.size (); ++c)
            std::ofstream (stem + "." + names[c], std::ios::binary)
                .write (samples[c].data (), samples[c].size ());
    }
    return 0;
}

} // namespace

int
main (int argc, char** argv)
{
    try
    {
        if (argc == 10 && std::strcmp (argv[1], "write") == 0) return write (argv);
        if (argc == 4 && std::strcmp (argv[1], "read") == 0) return read (argv);
    }
    catch (const std::exception& e)
    {
        std::cerr << e.what () << "\n";
        return 1;
    }
    std::cerr << "usage: deep_levels write OUT.exr W H TW TH mipmap|ripmap down|up none|rle|zips\n"
                 "       deep_levels read IN.exr OUTDIR\n";
    return 2;
}
