//! One-shot decompression of any number of concatenated frames: the output
//! allocated once at its exact size when the frames record their sizes,
//! frames decompressed in parallel when the output is large, and a buffer
//! that grows in place otherwise. Time is linear in the input.

use std::mem::MaybeUninit;

use super::context::{DCtx, with_decompressor};
use super::corrupt;
use super::dict::{DictUse, Dictionary};
use super::frames::{self, Span, TRUNCATED};
use super::params::DecompressParams;
use crate::codec::Output;
use crate::codec::output::{Fixed, too_small};
use crate::pipeline::Pipeline;
use crate::{Error, Result};

/// How to decompress.
#[derive(Clone, Copy, Debug, Default)]
pub struct DecompressOptions<'a> {
    /// Decompression parameters (zstd's defaults when empty).
    pub params: Option<&'a DecompressParams>,
    /// The dictionary the frames need, and how to give it to zstd.
    pub dict: Option<(&'a Dictionary, DictUse)>,
    /// The most bytes the output may have: more is an error, raised before
    /// anything is allocated when the frames record their sizes.
    pub max_output: Option<u64>,
    /// Threads for inputs of several frames (`None`: one per core).
    pub threads: Option<usize>,
}

impl DecompressOptions<'_> {
    fn max_window(&self) -> u64 {
        self.params.map_or_else(
            || DecompressParams::default().max_window(),
            DecompressParams::max_window,
        )
    }

    fn prepare(&self, context: &mut DCtx) -> Result<()> {
        if let Some(params) = self.params {
            params.apply(context)?;
        }
        self.attach(context)
    }

    fn attach(&self, context: &mut DCtx) -> Result<()> {
        match self.dict {
            // SAFETY: every context is reset when the call that attached
            // the dictionary returns (`with_decompressor`), and the
            // dictionary outlives the call.
            Some((dict, usage)) => unsafe { dict.attach_decompressor(context, usage) },
            None => Ok(()),
        }
    }

    fn check_limit(&self, size: u64) -> Result<()> {
        match self.max_output {
            Some(limit) if size > limit => Err(too_large(limit)),
            _ => Ok(()),
        }
    }
}

fn too_large(limit: u64) -> Error {
    Error::TooLarge { limit }
}

/// The total decompressed size of the frames of `data`, when every frame
/// records its size.
pub fn decompressed_size(data: &[u8]) -> Result<Option<u64>> {
    Ok(frames::scan(data, u64::MAX)?.total)
}

/// Decompresses every frame of `data` (at least one; skippable frames are
/// stepped over) and appends the result to `out`.
pub fn decompress(
    data: &[u8],
    options: &DecompressOptions,
    out: &mut (impl Output + ?Sized),
) -> Result<()> {
    let frames = frames::scan(data, options.max_window())?;
    let Some(total) = frames.total else {
        return decompress_streaming(data, &frames.spans, options, out);
    };
    options.check_limit(total)?;
    let total =
        usize::try_from(total).map_err(|_| crate::codec::output::out_of_memory(usize::MAX))?;
    let spare = out.spare(total)?;
    if spare.len() < total {
        return Err(too_small(total, spare.len()));
    }
    decompress_known(data, &frames.spans, &mut spare[..total], options)?;
    // SAFETY: `decompress_known` wrote all `total` bytes (it checks every
    // frame's size).
    unsafe { out.commit(total) };
    Ok(())
}

/// Decompresses every frame of `data` into `buf`; the size written.
pub fn decompress_into(data: &[u8], options: &DecompressOptions, buf: &mut [u8]) -> Result<usize> {
    let mut fixed = Fixed::new(buf);
    decompress(data, options, &mut fixed)?;
    Ok(fixed.len())
}

/// Frames that all record their sizes, into exactly that much memory.
fn decompress_known(
    data: &[u8],
    spans: &[Span],
    mut out: &mut [MaybeUninit<u8>],
    options: &DecompressOptions,
) -> Result<()> {
    let mut pieces = Vec::with_capacity(spans.len());
    for span in spans.iter().filter(|span| !span.skippable) {
        let size = span.size.expect("every size is known") as usize;
        let (piece, rest) = out.split_at_mut(size);
        pieces.push((span, piece));
        out = rest;
    }
    // Frames go to the threads in tasks of the pipeline's size (by the bytes
    // they write); one task runs on this thread.
    let pipeline = Pipeline::new(options.threads)?;
    let sizes: Vec<usize> = pieces.iter().map(|(_, piece)| piece.len()).collect();
    let mut pieces = pieces.into_iter();
    let tasks: Vec<Vec<_>> = pipeline
        .tasks(&sizes)
        .into_iter()
        .map(|task| pieces.by_ref().take(task.len()).collect())
        .collect();
    pipeline
        .map(tasks, |task| {
            with_decompressor(|context| {
                options.prepare(context)?;
                for (span, piece) in task {
                    decompress_frame(context, data, span, piece, options)?;
                }
                Ok(())
            })
        })
        .into_iter()
        .collect()
}

/// One frame whose size is known into `out`, which has exactly that size.
fn decompress_frame(
    context: &mut DCtx,
    data: &[u8],
    span: &Span,
    out: &mut [MaybeUninit<u8>],
    options: &DecompressOptions,
) -> Result<()> {
    if matches!(options.dict, Some((_, DictUse::Prefix))) {
        // A prefix serves one frame: each frame gets it again.
        options.attach(context)?;
    }
    let offset = Some(span.start as u64);
    let written = context
        .decompress(out, &data[span.start..span.end])
        .map_err(|code| corrupt(code, offset))?;
    if written != out.len() {
        return Err(Error::Corrupt {
            what: "frame decompresses to another size than its header says",
            offset,
            path: None,
        });
    }
    Ok(())
}

/// Frames of which some do not record their sizes: decompressed in order
/// into a buffer that grows.
fn decompress_streaming(
    data: &[u8],
    spans: &[Span],
    options: &DecompressOptions,
    out: &mut (impl Output + ?Sized),
) -> Result<()> {
    let start = out.len();
    // A first guess at the size: the output is usually a few times larger
    // than the input; the buffer doubles from there.
    let mut want = data.len().saturating_mul(4).clamp(1 << 15, 1 << 26);
    with_decompressor(|context| {
        options.prepare(context)?;
        for span in spans.iter().filter(|span| !span.skippable) {
            if matches!(options.dict, Some((_, DictUse::Prefix))) && span.start > 0 {
                options.attach(context)?;
            }
            let offset = Some(span.start as u64);
            let input = &data[span.start..span.end];
            let mut read = 0;
            loop {
                let produced = (out.len() - start) as u64;
                // A caller's buffer may be full with the frame's end still to
                // read (its last block header, its checksum): zstd gets the
                // chance to finish without room, and only no progress at all
                // means the buffer is too small.
                let spare = out.spare(want)?;
                let room = match options.max_output {
                    // One byte past the limit shows whether there is more.
                    Some(limit) => spare
                        .len()
                        .min((limit - produced).saturating_add(1) as usize),
                    None => spare.len(),
                };
                let spare = &mut spare[..room];
                let (mut written, before) = (0, read);
                let remaining = context
                    .decompress_stream(spare, &mut written, input, &mut read)
                    .map_err(|code| corrupt(code, offset))?;
                let full = written == spare.len();
                let stuck = spare.is_empty() && read == before;
                // SAFETY: zstd wrote `written` bytes at the start of `spare`.
                unsafe { out.commit(written) };
                options.check_limit((out.len() - start) as u64)?;
                if remaining == 0 {
                    break;
                }
                if stuck {
                    return Err(too_small("more", out.len()));
                }
                if read == input.len() && !full {
                    return Err(Error::Corrupt {
                        what: TRUNCATED,
                        offset,
                        path: None,
                    });
                }
                want = (out.len() - start).max(1 << 15);
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(data: &[u8], level: i32) -> Vec<u8> {
        let mut out = Vec::new();
        let params = super::super::CompressParams::with_level(level).unwrap();
        super::super::compress(data, &params, None, &mut out).unwrap();
        out
    }

    /// A frame without a content size, as streaming compressors write them.
    fn unsized_frame(data: &[u8]) -> Vec<u8> {
        let mut compressor = super::super::Compressor::new(&Default::default(), None).unwrap();
        let mut out = Vec::new();
        compressor
            .compress(data, super::super::Flush::Continue, &mut out)
            .unwrap();
        compressor
            .compress(&[], super::super::Flush::Frame, &mut out)
            .unwrap();
        assert_eq!(zstd_safe::get_frame_content_size(&out).unwrap(), None);
        out
    }

    fn sample(n: usize, seed: u32) -> Vec<u8> {
        (0..n as u32)
            .map(|i| ((i / 7).wrapping_mul(seed) % 251) as u8)
            .collect()
    }

    #[test]
    fn many_frames_decompress_in_one_piece_whatever_the_threads() {
        let parts: Vec<Vec<u8>> = (0..40)
            .map(|i| sample(50_000 + i * 999, i as u32 + 3))
            .collect();
        let mut input = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            if i % 3 == 0 {
                input.extend(unsized_frame(part));
            } else {
                input.extend(frame(part, 1));
            }
            if i == 5 {
                // A skippable frame between the others.
                input.extend_from_slice(&0x184D_2A51u32.to_le_bytes());
                input.extend_from_slice(&3u32.to_le_bytes());
                input.extend_from_slice(b"abc");
            }
        }
        let expected = parts.concat();
        for threads in [Some(1), Some(2), Some(3), None] {
            let options = DecompressOptions {
                threads,
                ..Default::default()
            };
            let mut out = Vec::new();
            decompress(&input, &options, &mut out).unwrap();
            assert_eq!(out, expected);
        }
        // Every frame sized: the parallel path.
        let sized: Vec<u8> = parts.iter().flat_map(|p| frame(p, 1)).collect();
        assert_eq!(
            decompressed_size(&sized).unwrap(),
            Some(expected.len() as u64)
        );
        for threads in [Some(1), Some(2)] {
            let mut out = b"kept".to_vec();
            let options = DecompressOptions {
                threads,
                ..Default::default()
            };
            decompress(&sized, &options, &mut out).unwrap();
            assert_eq!(&out[..4], b"kept");
            assert_eq!(&out[4..], &expected[..]);
        }
    }

    #[test]
    fn the_output_limit_stops_before_allocating() {
        let data = vec![0u8; 10 << 20];
        for input in [frame(&data, 3), unsized_frame(&data)] {
            let options = DecompressOptions {
                max_output: Some(1 << 20),
                ..Default::default()
            };
            let mut out = Vec::new();
            let error = decompress(&input, &options, &mut out).unwrap_err();
            assert!(
                matches!(error, Error::TooLarge { limit } if limit == 1 << 20),
                "{error}"
            );
            assert!(out.capacity() < 4 << 20, "{}", out.capacity());
            let exact = DecompressOptions {
                max_output: Some(10 << 20),
                ..Default::default()
            };
            out.clear();
            decompress(&input, &exact, &mut out).unwrap();
            assert_eq!(out.len(), 10 << 20);
        }
    }

    #[test]
    fn damaged_inputs_are_errors() {
        let good = frame(&sample(100_000, 5), 3);
        let options = DecompressOptions::default();
        let mut out = Vec::new();
        for bad in [
            &b""[..],
            &good[..good.len() - 1],
            &good[..3],
            b"not zstd at all",
        ] {
            assert!(matches!(
                decompress(bad, &options, &mut out),
                Err(Error::Corrupt { .. })
            ));
        }
        let mut trailing = good.clone();
        trailing.extend_from_slice(b"xx");
        assert!(decompress(&trailing, &options, &mut out).is_err());
        // A header that claims far more than its blocks can hold.
        let mut lying = frame(b"hello", 3);
        lying[4] = 0xC0 | (lying[4] & 0x3F);
        assert!(decompress(&lying, &options, &mut out).is_err());
    }

    #[test]
    fn into_a_buffer_of_the_exact_size_or_an_error() {
        let data = sample(70_000, 9);
        let input = frame(&data, 3);
        let mut buf = vec![0u8; 70_000];
        assert_eq!(
            decompress_into(&input, &DecompressOptions::default(), &mut buf).unwrap(),
            70_000
        );
        assert_eq!(buf, data);
        let mut small = vec![0u8; 69_999];
        assert!(decompress_into(&input, &DecompressOptions::default(), &mut small).is_err());
        let streamed = unsized_frame(&data);
        let mut buf = vec![0u8; 80_000];
        assert_eq!(
            decompress_into(&streamed, &DecompressOptions::default(), &mut buf).unwrap(),
            70_000
        );
        assert_eq!(&buf[..70_000], &data[..]);
        assert!(decompress_into(&streamed, &DecompressOptions::default(), &mut small).is_err());
        // Exactly its size: the frame's end is read with the buffer full.
        let mut exact = vec![0u8; 70_000];
        let options = DecompressOptions::default();
        assert_eq!(
            decompress_into(&streamed, &options, &mut exact).unwrap(),
            70_000
        );
        assert_eq!(exact, data);
    }
}
