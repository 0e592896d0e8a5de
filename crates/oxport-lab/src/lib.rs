//! The filter lab: every image's chunks through each filter and codec,
//! with the compressed size and the time to compress and decompress, on
//! one thread (the speed of one core; the writers use them all).
//!
//! Chunks are ZIP's: 16 lines. Every result is checked: the chunk is
//! decompressed, the filter inverted, and the bytes compared.

#![warn(missing_docs)]

pub mod chart;
mod codec;
mod filter;
mod predict;
#[cfg(feature = "zfp")]
mod zfp;

use std::time::Instant;

pub use codec::Codec;
pub use filter::Filter;

use oxport::build::Engine;
use oxport::exr::internals::{Layout, pack};
use oxport::exr::{Channel, Image};
use oxport::{Error, Result};

/// The lab's optional engine, for `oxport --version` beside the library's
/// ([`oxport::build::ENGINES`]).
pub const ENGINES: [Engine; 1] = [Engine {
    name: "zfp",
    enabled: cfg!(feature = "zfp"),
    changes: "ZFP's reversible mode is one of the filter lab's codecs",
}];

/// What the lab does.
#[derive(Clone, Debug)]
pub struct LabOptions {
    /// The filters compared.
    pub filters: Vec<Filter>,
    /// The codecs compared, each after every filter.
    pub codecs: Vec<Codec>,
    /// Timed rounds per cell; the fastest counts.
    pub rounds: usize,
}

impl Default for LabOptions {
    fn default() -> Self {
        LabOptions {
            filters: Filter::ALL.to_vec(),
            codecs: Codec::all(),
            rounds: 3,
        }
    }
}

/// One filter and codec over every image.
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    /// The filter.
    pub filter: Filter,
    /// The codec.
    pub codec: Codec,
    /// Bytes of pixels.
    pub raw: u64,
    /// Bytes compressed.
    pub packed: u64,
    /// Seconds to filter and compress every chunk (the fastest round).
    pub compress_seconds: f64,
    /// Seconds to decompress every chunk and invert the filter (the
    /// fastest round).
    pub decompress_seconds: f64,
}

impl Measure {
    /// Raw bytes per compressed byte.
    pub fn ratio(&self) -> f64 {
        self.raw as f64 / self.packed.max(1) as f64
    }

    /// Raw megabytes (10^6 bytes) filtered and compressed a second.
    pub fn compress_mb_s(&self) -> f64 {
        self.raw as f64 / 1e6 / self.compress_seconds.max(1e-12)
    }

    /// Raw megabytes (10^6 bytes) decompressed and unfiltered a second.
    pub fn decompress_mb_s(&self) -> f64 {
        self.raw as f64 / 1e6 / self.decompress_seconds.max(1e-12)
    }
}

/// What `measures` of `images` images cover: `2 images, 12.6 MB of pixels`.
pub fn describe(images: usize, measures: &[Measure]) -> String {
    let raw = measures.first().map_or(0, |m| m.raw);
    let plural = if images == 1 { "" } else { "s" };
    format!(
        "{images} image{plural}, {:.1} MB of pixels",
        raw as f64 / 1e6
    )
}

/// The measures as a Markdown table, under a line saying what they cover.
pub fn table(images: usize, measures: &[Measure]) -> String {
    let mut table = format!(
        "{}, chunks of {LINES} lines, one core\n\n\
         | filter | codec | ratio | compress MB/s | decompress MB/s |\n\
         | --- | --- | --- | --- | --- |\n",
        describe(images, measures)
    );
    for m in measures {
        table += &format!(
            "| {} | {} | {:.3} | {:.0} | {:.0} |\n",
            m.filter,
            m.codec,
            m.ratio(),
            m.compress_mb_s(),
            m.decompress_mb_s()
        );
    }
    table
}

const LINES: usize = 16;

/// An image cut into chunks.
struct Prepared {
    channels: Vec<Channel>,
    /// Each channel's sample size.
    sizes: Vec<usize>,
    width: usize,
    chunks: Vec<Vec<u8>>,
}

/// The image cut into chunks of 16 lines.
fn chunks(image: &Image) -> Result<Prepared> {
    let channels = image.header.channels()?.to_vec();
    let sizes: Vec<usize> = channels.iter().map(|c| c.pixel_type.size()).collect();
    let window = image.header.data_window()?;
    let (width, height) = (window.width() as usize, window.height() as usize);
    let planes: Vec<&[u8]> = image.planes.iter().map(Vec::as_slice).collect();
    let mut out = Vec::new();
    for first in (0..height).step_by(LINES) {
        let layout = Layout {
            origin: (0, first as i32),
            ..Layout::new(&sizes, width, LINES.min(height - first))
        };
        let mut chunk = vec![0; layout.bytes()];
        pack(&planes, (0, 0), width, &layout, &mut chunk);
        out.push(chunk);
    }
    Ok(Prepared {
        channels,
        sizes,
        width,
        chunks: out,
    })
}

/// Runs every filter × codec of `options` over `images` (codecs that take
/// no byte filter only after `none`); `progress(done, total)` after each.
pub fn run(
    images: &[Image],
    options: &LabOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<Measure>> {
    let prepared = images.iter().map(chunks).collect::<Result<Vec<_>>>()?;
    let pairs: Vec<(Filter, Codec)> = options
        .filters
        .iter()
        .flat_map(|&f| options.codecs.iter().map(move |&c| (f, c)))
        .filter(|(f, c)| c.takes_filters() || *f == Filter::None)
        .collect();
    let mut measures = Vec::with_capacity(pairs.len());
    for &(filter, codec) in &pairs {
        measures.push(measure(&prepared, filter, codec, options.rounds)?);
        progress(measures.len(), pairs.len());
    }
    Ok(measures)
}

/// Every chunk's layout, with the chunk.
fn layouts(prepared: &[Prepared]) -> impl Iterator<Item = (Layout<'_>, &[u8])> {
    prepared.iter().flat_map(|image| {
        let line = image.width * image.sizes.iter().sum::<usize>();
        image.chunks.iter().map(move |chunk| {
            let layout = Layout {
                channels: &image.channels,
                ..Layout::new(&image.sizes, image.width, chunk.len() / line)
            };
            (layout, chunk.as_slice())
        })
    })
}

/// One filter and codec over every chunk, the fastest of `rounds`, checked.
fn measure(prepared: &[Prepared], filter: Filter, codec: Codec, rounds: usize) -> Result<Measure> {
    let raw = layouts(prepared).map(|(_, c)| c.len() as u64).sum();
    let (mut compress_seconds, mut decompress_seconds, mut packed) =
        (f64::INFINITY, f64::INFINITY, 0);
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        let mut compressed = Vec::new();
        for (layout, chunk) in layouts(prepared) {
            let mut out = Vec::new();
            codec.compress(&filter.apply(chunk, &layout), &layout, &mut out)?;
            compressed.push(out);
        }
        compress_seconds = compress_seconds.min(start.elapsed().as_secs_f64());
        packed = compressed.iter().map(|c| c.len() as u64).sum();

        let start = Instant::now();
        let mut restored = Vec::with_capacity(compressed.len());
        for ((layout, _), data) in layouts(prepared).zip(&compressed) {
            let mut filtered = vec![0; filter.filtered_len(&layout)];
            let n = codec.decompress(data, &layout, &mut filtered)?;
            if n != filtered.len() {
                return Err(Error::Internal(
                    format!(
                        "{filter} + {codec}: a chunk came back {n} bytes, not {}",
                        filtered.len()
                    )
                    .into(),
                ));
            }
            restored.push(filter.invert(&filtered, &layout));
        }
        decompress_seconds = decompress_seconds.min(start.elapsed().as_secs_f64());
        if !restored
            .iter()
            .map(Vec::as_slice)
            .eq(layouts(prepared).map(|(_, c)| c))
        {
            return Err(Error::Internal(
                format!("{filter} + {codec} did not give the pixels back").into(),
            ));
        }
    }
    Ok(Measure {
        filter,
        codec,
        raw,
        packed,
        compress_seconds,
        decompress_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxport::exr::{Compression, Header, PixelType};

    /// Each codec over an image of every pixel type, R, G and B among them
    /// (HTJ2K's color transform), at a size no chunk divides: `run` checks
    /// that every chunk comes back.
    #[test]
    fn every_codec_gives_every_pixel_type_back() {
        let (width, height) = (37u32, 21u32);
        let channels = vec![
            Channel::new("B", PixelType::Half),
            Channel::new("G", PixelType::Half),
            Channel::new("R", PixelType::Half),
            Channel::new("Z", PixelType::Float),
            Channel::new("id", PixelType::Uint),
        ];
        let header = Header::new(width, height, channels, Compression::None).unwrap();
        let n = (width * height) as usize;
        let half = |k: usize| -> Vec<u8> {
            (0..n)
                .flat_map(|i| (0x3C00u16 + ((i * k) % 700) as u16).to_le_bytes())
                .collect()
        };
        let z: Vec<u8> = (0..n)
            .flat_map(|i| (i as f32 * -0.25).to_le_bytes())
            .collect();
        let id: Vec<u8> = (0..n)
            .flat_map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes())
            .collect();
        let image = Image {
            header,
            planes: vec![half(3), half(5), half(7), z, id],
        };
        let options = LabOptions {
            filters: vec![Filter::None],
            codecs: Codec::all(),
            rounds: 1,
        };
        let measures = run(&[image], &options, |_, _| {}).unwrap();
        assert_eq!(measures.len(), Codec::all().len());
        let htj2k = measures.iter().find(|m| m.codec == Codec::Htj2k).unwrap();
        assert!(htj2k.packed > 0 && htj2k.packed < htj2k.raw, "{htj2k:?}");
    }
}
