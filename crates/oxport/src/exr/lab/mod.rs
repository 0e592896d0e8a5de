//! The filter lab: every image's chunks through each filter and codec,
//! with the compressed size and the time to compress and decompress, on
//! one thread (the speed of one core; the writers use them all).
//!
//! Chunks are ZIP's: 16 lines. Every result is checked: the chunk is
//! decompressed, the filter inverted, and the bytes compared.

pub mod chart;
mod codec;
mod filter;

use std::time::Instant;

pub use codec::Codec;
pub use filter::Filter;

use super::Image;
use super::chunk::{self, Layout};
use crate::{Error, Result};

/// What the lab does.
#[derive(Clone, Debug)]
pub struct LabOptions {
    pub filters: Vec<Filter>,
    pub codecs: Vec<Codec>,
    /// Timed rounds per cell; the fastest counts.
    pub rounds: usize,
}

impl Default for LabOptions {
    fn default() -> Self {
        LabOptions {
            filters: Filter::ALL.to_vec(),
            codecs: Codec::ALL.to_vec(),
            rounds: 3,
        }
    }
}

/// One filter and codec over every image.
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    pub filter: Filter,
    pub codec: Codec,
    /// Bytes of pixels.
    pub raw: u64,
    /// Bytes compressed.
    pub packed: u64,
    /// Seconds to filter and compress every chunk, and to decompress and
    /// invert them (the fastest round).
    pub compress_seconds: f64,
    pub decompress_seconds: f64,
}

impl Measure {
    /// Raw bytes per compressed byte.
    pub fn ratio(&self) -> f64 {
        self.raw as f64 / self.packed.max(1) as f64
    }

    pub fn compress_mb_s(&self) -> f64 {
        self.raw as f64 / 1e6 / self.compress_seconds.max(1e-12)
    }

    pub fn decompress_mb_s(&self) -> f64 {
        self.raw as f64 / 1e6 / self.decompress_seconds.max(1e-12)
    }
}

const LINES: usize = 16;

/// Every image cut into chunks of 16 lines: (layout sizes, width, chunks).
fn chunks(image: &Image) -> Result<(Vec<usize>, usize, Vec<Vec<u8>>)> {
    let sizes: Vec<usize> = image
        .header
        .channels()?
        .iter()
        .map(|c| c.pixel_type.size())
        .collect();
    let window = image.header.data_window()?;
    let (width, height) = (window.width() as usize, window.height() as usize);
    let planes: Vec<&[u8]> = image.planes.iter().map(Vec::as_slice).collect();
    let mut out = Vec::new();
    for first in (0..height).step_by(LINES) {
        let layout = Layout {
            sizes: &sizes,
            width,
            lines: LINES.min(height - first),
        };
        let mut chunk = Vec::new();
        chunk::pack(&planes, &layout, first, &mut chunk);
        out.push(chunk);
    }
    Ok((sizes, width, out))
}

/// Runs every filter × codec of `options` over `images`; `progress(done,
/// total)` after each.
pub fn run(
    images: &[Image],
    options: &LabOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<Measure>> {
    let prepared = images.iter().map(chunks).collect::<Result<Vec<_>>>()?;
    let raw: u64 = prepared
        .iter()
        .flat_map(|(_, _, c)| c)
        .map(|c| c.len() as u64)
        .sum();
    let total = options.filters.len() * options.codecs.len();
    let mut measures = Vec::with_capacity(total);
    for &filter in &options.filters {
        for &codec in &options.codecs {
            let (mut best_c, mut best_d, mut packed) = (f64::INFINITY, f64::INFINITY, 0u64);
            for _ in 0..options.rounds.max(1) {
                let mut compressed: Vec<Vec<u8>> = Vec::new();
                let start = Instant::now();
                for (sizes, width, list) in &prepared {
                    for chunk in list {
                        let layout = Layout {
                            sizes,
                            width: *width,
                            lines: chunk.len() / (width * sizes.iter().sum::<usize>()),
                        };
                        let mut out = Vec::new();
                        codec.compress(&filter.apply(chunk, &layout), &mut out)?;
                        compressed.push(out);
                    }
                }
                best_c = best_c.min(start.elapsed().as_secs_f64());
                packed = compressed.iter().map(|c| c.len() as u64).sum();
                let start = Instant::now();
                let mut restored = Vec::with_capacity(compressed.len());
                let mut packed_chunks = compressed.iter();
                for (sizes, width, list) in &prepared {
                    for chunk in list {
                        let layout = Layout {
                            sizes,
                            width: *width,
                            lines: chunk.len() / (width * sizes.iter().sum::<usize>()),
                        };
                        let mut filtered = vec![0; chunk.len()];
                        let n = codec.decompress(
                            packed_chunks.next().expect("one per chunk"),
                            &mut filtered,
                        )?;
                        if n != chunk.len() {
                            return Err(Error::Internal(
                                format!(
                                    "{filter} + {codec}: a chunk came back {n} bytes, not {}",
                                    chunk.len()
                                )
                                .into(),
                            ));
                        }
                        restored.push(filter.invert(&filtered, &layout));
                    }
                }
                best_d = best_d.min(start.elapsed().as_secs_f64());
                let originals = prepared.iter().flat_map(|(_, _, c)| c);
                if !restored.iter().eq(originals) {
                    return Err(Error::Internal(
                        format!("{filter} + {codec} did not give the pixels back").into(),
                    ));
                }
            }
            measures.push(Measure {
                filter,
                codec,
                raw,
                packed,
                compress_seconds: best_c,
                decompress_seconds: best_d,
            });
            progress(measures.len(), total);
        }
    }
    Ok(measures)
}
