//! Streaming decompression of one frame, with the semantics of Python's
//! `compression.zstd.ZstdDecompressor`: output bounded by `max_length`,
//! unconsumed input kept for the next call, bytes after the frame kept as
//! `unused_data`.

use std::sync::Arc;

use super::context::DCtx;
use super::corrupt;
use super::dict::{DictUse, Dictionary};
use super::params::DecompressParams;
use crate::codec::Output;
use crate::{Error, Result};

/// A decompression stream over one frame.
pub struct Decompressor {
    // Declared before the dictionary: dropped first.
    context: DCtx,
    dict: Option<Arc<Dictionary>>,
    /// Input given but not consumed yet.
    pending: Vec<u8>,
    eof: bool,
    needs_input: bool,
    unused: Vec<u8>,
}

impl std::fmt::Debug for Decompressor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decompressor")
            .field("eof", &self.eof)
            .field("needs_input", &self.needs_input)
            .finish()
    }
}

impl Decompressor {
    /// A stream with `params` and an optional dictionary.
    pub fn new(
        params: &DecompressParams,
        dict: Option<(Arc<Dictionary>, DictUse)>,
    ) -> Result<Self> {
        let mut context = DCtx::new()?;
        params.apply(&mut context)?;
        if let Some((dict, usage)) = &dict {
            // SAFETY: the decompressor keeps the dictionary alive for as
            // long as the context (fields drop in order).
            unsafe { dict.attach_decompressor(&mut context, *usage)? };
        }
        Ok(Decompressor {
            context,
            dict: dict.map(|(dict, _)| dict),
            pending: Vec::new(),
            eof: false,
            needs_input: true,
            unused: Vec::new(),
        })
    }

    /// Whether the frame has ended.
    pub fn eof(&self) -> bool {
        self.eof
    }

    /// Whether the next call needs more input to produce output: false when
    /// output is waiting (the last call stopped at `max_length`).
    pub fn needs_input(&self) -> bool {
        self.needs_input
    }

    /// The input after the end of the frame (empty until then).
    pub fn unused_data(&self) -> &[u8] {
        &self.unused
    }

    /// The dictionary, if any.
    pub fn dictionary(&self) -> Option<&Arc<Dictionary>> {
        self.dict.as_ref()
    }

    /// Decompresses `data` (after any input kept from before) and appends
    /// at most `max_length` bytes to `out` (`None`: all that the input
    /// gives).
    pub fn decompress(
        &mut self,
        data: &[u8],
        max_length: Option<usize>,
        out: &mut (impl Output + ?Sized),
    ) -> Result<()> {
        if self.eof {
            return Err(Error::invalid("already at the end of a zstd frame"));
        }
        let mut pending = std::mem::take(&mut self.pending);
        let input: &[u8] = if pending.is_empty() {
            data
        } else {
            pending.extend_from_slice(data);
            &pending
        };
        let mut read = 0;
        let start = out.len();
        let result = self.run(input, &mut read, max_length, out);
        if let Err(error) = result {
            self.context.reset(false);
            return Err(error);
        }
        let produced = out.len() - start;
        let rest = &input[read..];
        if self.eof {
            self.needs_input = false;
            self.unused = rest.to_vec();
        } else if rest.is_empty() {
            self.needs_input = max_length != Some(produced);
        } else {
            self.needs_input = false;
            let kept = rest.to_vec();
            self.pending = kept;
        }
        Ok(())
    }

    fn run(
        &mut self,
        input: &[u8],
        read: &mut usize,
        max_length: Option<usize>,
        out: &mut (impl Output + ?Sized),
    ) -> Result<()> {
        let start = out.len();
        let mut want = max_length.map_or(1 << 15, |max| max.min(1 << 15));
        loop {
            let produced = out.len() - start;
            let spare = out.spare(want)?;
            let room = max_length.map_or(spare.len(), |max| spare.len().min(max - produced));
            let spare = &mut spare[..room];
            let mut written = 0;
            let remaining = self
                .context
                .decompress_stream(spare, &mut written, input, read)
                .map_err(|code| corrupt(code, None))?;
            // SAFETY: zstd wrote `written` bytes at the start of `spare`.
            unsafe { out.commit(written) };
            if remaining == 0 {
                self.eof = true;
                return Ok(());
            }
            let produced = out.len() - start;
            if written == room {
                if max_length == Some(produced) {
                    return Ok(());
                }
            } else if *read == input.len() {
                return Ok(());
            }
            want = produced.max(1 << 15);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::zstd::{CompressParams, compress};

    #[test]
    fn bounded_pieces_then_the_rest_then_unused_data() {
        let data: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        let mut input = Vec::new();
        compress(&data, &CompressParams::default(), None, &mut input).unwrap();
        input.extend_from_slice(b"after");
        let mut decompressor = Decompressor::new(&DecompressParams::default(), None).unwrap();
        let mut out = Vec::new();
        decompressor
            .decompress(&input[..10], None, &mut out)
            .unwrap();
        assert!(decompressor.needs_input() && !decompressor.eof());
        decompressor
            .decompress(&input[10..], Some(1000), &mut out)
            .unwrap();
        assert_eq!(out.len(), 1000);
        assert!(!decompressor.needs_input());
        decompressor.decompress(&[], Some(0), &mut out).unwrap();
        assert_eq!(out.len(), 1000);
        decompressor.decompress(&[], None, &mut out).unwrap();
        assert_eq!(out, data);
        assert!(decompressor.eof() && !decompressor.needs_input());
        assert_eq!(decompressor.unused_data(), b"after");
        assert!(decompressor.decompress(b"x", None, &mut out).is_err());
    }
}
