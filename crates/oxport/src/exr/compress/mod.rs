//! Chunk compression by method. Every method stores a chunk raw when
//! compressing does not make it smaller, and a reader takes a chunk whose
//! size equals its uncompressed size as raw, as OpenEXR does.

pub(crate) mod b44;
pub(crate) mod dwa;
mod htj2k;
pub(crate) mod piz;
pub(crate) mod pxr24;
pub(crate) mod rle;
pub(crate) mod zip;
pub(crate) mod zstd;

#[cfg(any(test, feature = "internals"))]
use super::attribute::Channel;
use super::chunk::Layout;
use super::method::Compression;
use crate::{Error, Result};

/// Appends the chunk `raw` (in `layout`) compressed with `method` at
/// `level` (`None`: the method's default) to `out`. `tiled`: the chunk is
/// a tile (DWAA codes tiles otherwise, as OpenEXR does).
pub(crate) fn compress(
    method: Compression,
    level: Option<i32>,
    raw: &[u8],
    layout: &Layout,
    tiled: bool,
    out: &mut Vec<u8>,
) -> Result<()> {
    let start = out.len();
    let mut stored = true;
    match method {
        Compression::None => {}
        Compression::Rle => rle::compress(raw, out),
        Compression::Zip | Compression::Zips => {
            zip::compress(raw, level.unwrap_or(zip::DEFAULT_LEVEL), out)?
        }
        Compression::Zstd => {
            zstd::compress(raw, layout, level.unwrap_or(zstd::DEFAULT_LEVEL), out)?
        }
        Compression::Pxr24 => {
            check_channels(layout)?;
            pxr24::compress(raw, layout, level.unwrap_or(zip::DEFAULT_LEVEL), out)?
        }
        Compression::Piz => stored = piz::compress(raw, layout, out),
        Compression::B44 | Compression::B44a => {
            check_channels(layout)?;
            b44::compress(raw, layout, method == Compression::B44a, out)
        }
        Compression::Dwaa | Compression::Dwab => {
            check_channels(layout)?;
            stored = dwa::compress(raw, layout, method == Compression::Dwab, tiled, out)?;
        }
        Compression::Htj2k256 | Compression::Htj2k32 => stored = htj2k::compress(raw, layout, out)?,
        other => {
            return Err(Error::Unsupported(
                format!(
                    "writing {other} compression (oxport writes {})",
                    Compression::writable_names()
                )
                .into(),
            ));
        }
    }
    if method == Compression::None || !stored || out.len() - start >= raw.len() {
        out.truncate(start);
        out.extend_from_slice(raw);
    }
    Ok(())
}

/// The shape of one chunk of `width × lines` pixels whose first pixel is
/// at `origin`, of a part with `channels`: what the public chunk functions
/// build their [`Layout`] from.
#[cfg(any(test, feature = "internals"))]
struct ChunkShape<'a> {
    channels: &'a [Channel],
    sizes: Vec<usize>,
    sampling: Vec<(i32, i32)>,
    width: usize,
    lines: usize,
    origin: (i32, i32),
}

#[cfg(any(test, feature = "internals"))]
impl<'a> ChunkShape<'a> {
    fn new(
        channels: &'a [Channel],
        width: usize,
        lines: usize,
        origin: (i32, i32),
    ) -> Result<Self> {
        let (sizes, sampling) = super::chunk::shapes_of(channels);
        if sampling.iter().any(|&(x, y)| x < 1 || y < 1) {
            return Err(Error::invalid("a channel's sampling is below 1"));
        }
        width
            .checked_mul(lines)
            .and_then(|n| n.checked_mul(sizes.iter().sum()))
            .ok_or_else(|| Error::invalid("a chunk larger than memory"))?;
        Ok(ChunkShape {
            channels,
            sizes,
            sampling,
            width,
            lines,
            origin,
        })
    }

    fn layout(&self) -> Layout<'_> {
        Layout {
            sizes: &self.sizes,
            channels: self.channels,
            width: self.width,
            lines: self.lines,
            sampling: &self.sampling,
            origin: self.origin,
        }
    }
}

#[cfg(any(test, feature = "internals"))]
/// Decompresses one chunk of `width × lines` pixels whose first pixel is
/// at `origin`, of a part with `channels`, compressed with `method`: its
/// bytes in the chunk layout (`docs/formats/exr.md`). For tools that handle
/// chunks themselves, and for fuzzing every decoder.
pub fn decompress_chunk(
    method: Compression,
    packed: &[u8],
    channels: &[Channel],
    width: usize,
    lines: usize,
    origin: (i32, i32),
) -> Result<Vec<u8>> {
    let shape = ChunkShape::new(channels, width, lines, origin)?;
    let layout = shape.layout();
    let mut out = vec![0u8; layout.bytes()];
    decompress(method, packed, &layout, &mut out)?;
    Ok(out)
}

#[cfg(feature = "internals")]
/// Compresses one chunk `raw` (its bytes in the chunk layout, as
/// [`decompress_chunk`] gives them) of `width × lines` pixels from
/// `origin`, of a part with `channels`, with `method` at OpenEXR's default
/// level (`tiled`: the chunk is a tile): the chunk's data as a file holds
/// it, raw when compressing does not make it smaller. For tools that
/// handle chunks themselves, and for fuzzing every encoder.
pub fn compress_chunk(
    method: Compression,
    raw: &[u8],
    channels: &[Channel],
    width: usize,
    lines: usize,
    origin: (i32, i32),
    tiled: bool,
) -> Result<Vec<u8>> {
    let shape = ChunkShape::new(channels, width, lines, origin)?;
    let layout = shape.layout();
    if raw.len() != layout.bytes() {
        return Err(Error::invalid(format!(
            "a chunk of this layout holds {} bytes, {} were given",
            layout.bytes(),
            raw.len()
        )));
    }
    let mut out = Vec::new();
    compress(method, None, raw, &layout, tiled, &mut out)?;
    Ok(out)
}

#[cfg(feature = "internals")]
/// The bytes of one chunk of `width × lines` pixels from `origin` of a part
/// with `channels`, in the chunk layout (fewer than the pixels' for
/// subsampled channels).
pub fn chunk_bytes(
    channels: &[Channel],
    width: usize,
    lines: usize,
    origin: (i32, i32),
) -> Result<usize> {
    Ok(ChunkShape::new(channels, width, lines, origin)?
        .layout()
        .bytes())
}

/// The methods that code by type need every channel.
fn check_channels(layout: &Layout) -> Result<()> {
    if layout.channels.len() == layout.sizes.len() {
        Ok(())
    } else {
        Err(Error::Internal(
            "a chunk layout without its channels".into(),
        ))
    }
}

/// Decompresses the chunk `packed` (compressed with `method`) into exactly
/// `out.len()` bytes in `layout`.
pub(crate) fn decompress(
    method: Compression,
    packed: &[u8],
    layout: &Layout,
    out: &mut [u8],
) -> Result<()> {
    if packed.len() == out.len() {
        out.copy_from_slice(packed);
        return Ok(());
    }
    decompress_coded(method, packed, layout, out)
}

/// Decodes `packed`, compressed with `method`, into exactly `out.len()`
/// bytes in `layout`, as [`decompress`] does but never taking `packed` as
/// stored (a deep tile's count table can be compressed to its raw size).
pub(crate) fn decompress_coded(
    method: Compression,
    packed: &[u8],
    layout: &Layout,
    out: &mut [u8],
) -> Result<()> {
    match method {
        Compression::None => Err(Error::corrupt(
            "an uncompressed chunk's size does not match its lines",
        )),
        Compression::Rle => rle::decompress(packed, out),
        Compression::Zip | Compression::Zips => zip::decompress(packed, out),
        Compression::Zstd => zstd::decompress(packed, layout, out),
        Compression::Piz => piz::decompress(packed, layout, out),
        Compression::Pxr24 => {
            check_channels(layout)?;
            pxr24::decompress(packed, layout, out)
        }
        Compression::B44 | Compression::B44a => {
            check_channels(layout)?;
            b44::decompress(packed, layout, out)
        }
        Compression::Dwaa | Compression::Dwab => {
            check_channels(layout)?;
            dwa::decompress(packed, layout, out)
        }
        Compression::Htj2k256 | Compression::Htj2k32 => {
            check_channels(layout)?;
            htj2k::decompress(packed, layout, out)
        }
        other => Err(Error::Unsupported(
            format!("reading {other} compression").into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exr::attribute::PixelType;

    /// The seeds of the `exr_chunk` fuzz target (first chunks of OpenEXR
    /// 3.5's files of each method: A FLOAT, B, G, R HALF, 37 pixels wide)
    /// decode, so that the fuzzer starts inside every decoder.
    #[test]
    fn the_fuzz_seeds_are_chunks_that_decode() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/exr_chunk");
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            let method = Compression::from_code(bytes[0]).unwrap();
            let channels: Vec<Channel> = [
                ("A", PixelType::Float),
                ("B", PixelType::Half),
                ("G", PixelType::Half),
                ("R", PixelType::Half),
            ]
            .iter()
            .map(|&(n, t)| Channel::new(n, t))
            .collect();
            let (width, lines) = (usize::from(bytes[6]) + 1, usize::from(bytes[7]) + 1);
            let out =
                decompress_chunk(method, &bytes[10..], &channels, width, lines, (0, 0)).unwrap();
            assert_eq!(out.len(), width * lines * 10, "{method}");
            seen += 1;
        }
        assert_eq!(seen, 12);
    }
}
