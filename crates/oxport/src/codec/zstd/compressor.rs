//! Streaming compression: input in pieces, output as it is ready, frames
//! ended when the caller says.

use std::sync::Arc;

use zstd_safe::zstd_sys::ZSTD_EndDirective;

use super::context::CCtx;
use super::dict::{DictUse, Dictionary};
use super::params::CompressParams;
use super::refused;
use crate::codec::Output;
use crate::{Error, Result};

/// How far [`Compressor::compress`] takes the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flush {
    /// Output what zstd has ready; keep the rest for better compression.
    Continue,
    /// End the current block: everything so far can be decompressed.
    Block,
    /// End the frame: the next input starts a new one.
    Frame,
}

impl Flush {
    fn directive(self) -> ZSTD_EndDirective {
        match self {
            Flush::Continue => ZSTD_EndDirective::ZSTD_e_continue,
            Flush::Block => ZSTD_EndDirective::ZSTD_e_flush,
            Flush::Frame => ZSTD_EndDirective::ZSTD_e_end,
        }
    }
}

/// A compression stream.
pub struct Compressor {
    // Declared before the dictionary: dropped first, while what it
    // references is alive.
    context: CCtx,
    dict: Option<Arc<Dictionary>>,
    last: Flush,
}

impl std::fmt::Debug for Compressor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compressor")
            .field("last", &self.last)
            .finish()
    }
}

impl Compressor {
    /// A stream with `params` and an optional dictionary.
    pub fn new(params: &CompressParams, dict: Option<(Arc<Dictionary>, DictUse)>) -> Result<Self> {
        let mut context = CCtx::new()?;
        params.apply(&mut context)?;
        if let Some((dict, usage)) = &dict {
            // SAFETY: the compressor keeps the dictionary alive for as long
            // as the context (fields drop in order).
            unsafe { dict.attach_compressor(&mut context, *usage, params.level())? };
        }
        Ok(Compressor {
            context,
            dict: dict.map(|(dict, _)| dict),
            last: Flush::Frame,
        })
    }

    /// The mode of the last call: [`Flush::Frame`] at the start of a frame.
    pub fn last_mode(&self) -> Flush {
        self.last
    }

    /// The dictionary, if any.
    pub fn dictionary(&self) -> Option<&Arc<Dictionary>> {
        self.dict.as_ref()
    }

    /// Declares the size of the next frame (`None`: unknown), which its
    /// header then records; only at the start of a frame.
    pub fn set_pledged_input_size(&mut self, size: Option<u64>) -> Result<()> {
        if self.last != Flush::Frame {
            return Err(Error::invalid(
                "the pledged input size can only be set at the start of a frame",
            ));
        }
        self.context.set_pledged_size(size).map_err(refused)
    }

    /// Compresses `data` and appends to `out` what `mode` asks for. On an
    /// error the frame in progress is abandoned.
    pub fn compress(
        &mut self,
        data: &[u8],
        mode: Flush,
        out: &mut (impl Output + ?Sized),
    ) -> Result<()> {
        let result = self.run(data, mode, out);
        match result {
            Ok(()) => self.last = mode,
            Err(_) => {
                self.context.reset(false);
                self.last = Flush::Frame;
            }
        }
        result
    }

    fn run(&mut self, data: &[u8], mode: Flush, out: &mut (impl Output + ?Sized)) -> Result<()> {
        // A whole frame in one call needs at most the bound; otherwise start
        // small and let the buffer double.
        let mut want = if mode == Flush::Frame && self.last == Flush::Frame {
            super::compress_bound(data.len())
        } else {
            (data.len() / 2).clamp(1 << 12, 1 << 17)
        };
        let mut read = 0;
        loop {
            let spare = out.spare(want)?;
            let mut written = 0;
            let remaining = self
                .context
                .compress_stream(spare, &mut written, data, &mut read, mode.directive())
                .map_err(refused)?;
            // SAFETY: zstd wrote `written` bytes at the start of `spare`.
            unsafe { out.commit(written) };
            let done = match mode {
                Flush::Continue => read == data.len(),
                Flush::Block | Flush::Frame => remaining == 0,
            };
            if done {
                return Ok(());
            }
            want = out.len().max(1 << 15);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::zstd::{DecompressOptions, decompress};

    #[test]
    fn pieces_flushes_and_frames_decompress_to_the_input() {
        let data: Vec<u8> = (0..500_000u32).map(|i| (i % 1000 / 3) as u8).collect();
        let mut compressor = Compressor::new(&CompressParams::default(), None).unwrap();
        let mut out = Vec::new();
        for piece in data.chunks(70_001) {
            compressor
                .compress(piece, Flush::Continue, &mut out)
                .unwrap();
        }
        compressor.compress(&[], Flush::Block, &mut out).unwrap();
        let flushed = out.len();
        assert!(flushed > 0);
        compressor.compress(&[], Flush::Frame, &mut out).unwrap();
        assert_eq!(compressor.last_mode(), Flush::Frame);
        compressor.set_pledged_input_size(Some(5)).unwrap();
        compressor
            .compress(b"hello", Flush::Frame, &mut out)
            .unwrap();
        let mut back = Vec::new();
        decompress(&out, &DecompressOptions::default(), &mut back).unwrap();
        assert_eq!(&back[..data.len()], &data[..]);
        assert_eq!(&back[data.len()..], b"hello");

        compressor
            .compress(b"abc", Flush::Continue, &mut out)
            .unwrap();
        assert!(compressor.set_pledged_input_size(Some(1)).is_err());
    }

    #[test]
    fn a_broken_pledge_abandons_the_frame() {
        let mut compressor = Compressor::new(&CompressParams::default(), None).unwrap();
        compressor.set_pledged_input_size(Some(10)).unwrap();
        let mut out = Vec::new();
        compressor
            .compress(b"abc", Flush::Continue, &mut out)
            .unwrap();
        assert!(compressor.compress(b"", Flush::Frame, &mut out).is_err());
        assert_eq!(compressor.last_mode(), Flush::Frame);
        out.clear();
        compressor
            .compress(b"again", Flush::Frame, &mut out)
            .unwrap();
        let mut back = Vec::new();
        decompress(&out, &DecompressOptions::default(), &mut back).unwrap();
        assert_eq!(back, b"again");
    }
}
