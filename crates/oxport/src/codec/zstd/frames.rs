//! What frame headers say, and the frames of a whole input found without
//! decoding them (zstd walks the block headers).

use zstd_safe::zstd_sys as sys;

use super::{MAX_RATIO, check, corrupt};
use crate::{Error, Result};

/// What a frame header records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameInfo {
    /// The decompressed size, when the header records it.
    pub content_size: Option<u64>,
    /// The id of the dictionary the frame needs (0: none recorded).
    pub dictionary_id: u32,
}

/// The header of the frame at the start of `data` (6 to 18 bytes are
/// enough).
pub fn frame_info(data: &[u8]) -> Result<FrameInfo> {
    let content_size = zstd_safe::get_frame_content_size(data).map_err(|_| Error::Corrupt {
        what: "not the complete header of a zstd frame",
        offset: Some(0),
        path: None,
    })?;
    let dictionary_id = zstd_safe::get_dict_id_from_frame(data).map_or(0, |id| id.get());
    Ok(FrameInfo {
        content_size,
        dictionary_id,
    })
}

/// The compressed size of the whole frame at the start of `data` (which
/// must hold all of it).
pub fn frame_size(data: &[u8]) -> Result<usize> {
    zstd_safe::find_frame_compressed_size(data).map_err(|code| corrupt(code, Some(0)))
}

/// One frame of an input: its bytes and content size (`Some(0)` for a
/// skippable frame, `None` when the header does not record it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: usize,
    pub end: usize,
    pub size: Option<u64>,
    pub skippable: bool,
}

/// The frames of an input and, when every frame records it, the total
/// decompressed size.
#[derive(Debug)]
pub(crate) struct Frames {
    pub spans: Vec<Span>,
    pub total: Option<u64>,
}

/// zstd's "unknown" content size (`ZSTD_CONTENTSIZE_UNKNOWN`).
pub(crate) const CONTENTSIZE_UNKNOWN: u64 = u64::MAX;

pub(crate) const TRUNCATED: &str =
    "Compressed data ended before the end-of-stream marker was reached";

/// Every frame of `data`, checked: complete, of known kinds, asking for a
/// window of at most `max_window` bytes, and not recording a content size
/// its compressed size cannot hold.
pub(crate) fn scan(data: &[u8], max_window: u64) -> Result<Frames> {
    if data.is_empty() {
        return Err(Error::Corrupt {
            what: TRUNCATED,
            offset: Some(0),
            path: None,
        });
    }
    let mut spans = Vec::new();
    let mut total = Some(0u64);
    let mut at = 0;
    while at < data.len() {
        let rest = &data[at..];
        let offset = Some(at as u64);
        let truncated = Error::Corrupt {
            what: TRUNCATED,
            offset,
            path: None,
        };
        let mut header = std::mem::MaybeUninit::<sys::ZSTD_FrameHeader>::zeroed();
        // SAFETY: zstd reads at most `rest.len()` bytes and fills the header.
        let code = unsafe {
            sys::ZSTD_getFrameHeader(header.as_mut_ptr(), rest.as_ptr().cast(), rest.len())
        };
        // SAFETY: zeroed is a valid header, and zstd only writes valid values.
        let header = unsafe { header.assume_init() };
        match check(code) {
            Err(code) => return Err(corrupt(code, offset)),
            Ok(0) => {}
            Ok(_) => return Err(truncated),
        }
        let skippable = header.frameType == sys::ZSTD_FrameType_e::ZSTD_skippableFrame;
        if !skippable && header.windowSize > max_window {
            return Err(Error::Corrupt {
                what: "Frame requires too much memory for decoding (raise window_log_max)",
                offset,
                path: None,
            });
        }
        let length = zstd_safe::find_frame_compressed_size(rest).map_err(|code| {
            if zstd_safe::get_error_name(code).contains("Src size") {
                truncated
            } else {
                corrupt(code, offset)
            }
        })?;
        let size = if skippable {
            Some(0)
        } else if header.frameContentSize == CONTENTSIZE_UNKNOWN {
            None
        } else if header.frameContentSize > (length as u64).saturating_mul(MAX_RATIO) {
            return Err(Error::Corrupt {
                what: "frame content size impossible for its compressed size",
                offset,
                path: None,
            });
        } else {
            Some(header.frameContentSize)
        };
        total = match (total, size) {
            (Some(total), Some(size)) => Some(total.checked_add(size).ok_or(Error::Corrupt {
                what: "content sizes overflow",
                offset,
                path: None,
            })?),
            _ => None,
        };
        spans.push(Span {
            start: at,
            end: at + length,
            size,
            skippable,
        });
        at += length;
    }
    Ok(Frames { spans, total })
}
