//! Raw deflate at levels 1 to 3 through ISA-L's igzip, one shot: the
//! fastest deflate compressor there is at those levels (hand-written SIMD),
//! its output a few percent larger than libdeflate's at the same level.
//!
//! Each thread keeps its stream state (82 KB: zeroing it per call would
//! cost more than compressing a kilobyte) and the level's hash buffer. The
//! stateless call takes at most 4 GiB at a time, so larger inputs go in
//! pieces of [`PIECE`] bytes, each ending on a byte boundary (a full
//! flush): the stream stays one valid deflate stream, with the history
//! restarting at each piece.

use std::cell::RefCell;
use std::mem::MaybeUninit;

use isal_sys::igzip_lib as sys;

use crate::{Error, Result};

/// The largest input of one stateless call here.
const PIECE: usize = 1 << 30;

/// The hash buffer ISA-L asks for at each level (its defaults).
fn level_buffer_size(level: i32) -> usize {
    match level {
        1 => sys::ISAL_DEF_LVL1_DEFAULT as usize,
        2 => sys::ISAL_DEF_LVL2_DEFAULT as usize,
        _ => sys::ISAL_DEF_LVL3_DEFAULT as usize,
    }
}

struct State {
    stream: Box<sys::isal_zstream>,
    level_buffer: Vec<u8>,
}

/// A stream state of zeros, on the heap (82 KB: not through the stack).
fn zeroed_stream() -> Box<sys::isal_zstream> {
    let layout = std::alloc::Layout::new::<sys::isal_zstream>();
    // SAFETY: a non-zero-sized layout; all zeros is a valid value of this
    // plain C struct (integers and null pointers), and the box frees it
    // with the same layout.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<sys::isal_zstream>();
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(ptr)
    }
}

thread_local! {
    static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
}

/// The most bytes the raw stream of `len` input bytes can take.
pub(super) fn bound(len: usize) -> usize {
    bound_in_pieces(len, PIECE)
}

/// [`bound`] for pieces of `piece` bytes: ISA-L falls back to stored
/// blocks (5 bytes of header per 65,535 bytes) when compressing does not
/// pay; each piece rounds its blocks up on its own and may end with an
/// empty 5-byte block (the full flush).
fn bound_in_pieces(len: usize, piece: usize) -> usize {
    let pieces = len.div_ceil(piece).max(1);
    len + 5 * len.div_ceil(65_535) + 10 * pieces
}

/// Compresses `data` into `out` as raw deflate at `level` (1 to 3); the
/// number of bytes written, or `None` when `out` is too small ([`bound`]
/// bytes always suffice).
pub(super) fn compress(
    data: &[u8],
    level: i32,
    out: &mut [MaybeUninit<u8>],
) -> Result<Option<usize>> {
    compress_in_pieces(data, level, out, PIECE)
}

fn compress_in_pieces(
    data: &[u8],
    level: i32,
    out: &mut [MaybeUninit<u8>],
    piece: usize,
) -> Result<Option<usize>> {
    debug_assert!((1..=3).contains(&level) && piece <= u32::MAX as usize / 2);
    STATE.with(|cell| {
        let mut slot = cell.try_borrow_mut().map_err(|_| {
            Error::Internal("a thread's ISA-L state was asked for while in use".into())
        })?;
        let state = slot.get_or_insert_with(|| State {
            stream: zeroed_stream(),
            level_buffer: Vec::new(),
        });
        let buffer_size = level_buffer_size(level);
        if state.level_buffer.len() < buffer_size {
            state.level_buffer.resize(buffer_size, 0);
        }
        let stream: *mut sys::isal_zstream = &mut *state.stream;
        let mut written = 0;
        // An empty input is one empty last piece.
        let mut pieces = data.chunks(piece).peekable();
        loop {
            let input: &[u8] = pieces.next().unwrap_or(&[]);
            let last = pieces.peek().is_none();
            let room = &mut out[written..];
            // The bound of this piece alone, or what is left when less: an
            // overflow is then reported below.
            let avail = bound_in_pieces(input.len(), piece)
                .min(room.len())
                .min(u32::MAX as usize);
            // SAFETY: `stateless_init` resets what a call reads, and every pointer set below is valid for its
            // length during the call; the level buffer is the size the
            // level asks for.
            let status = unsafe {
                sys::isal_deflate_stateless_init(stream);
                (*stream).level = level as u32;
                (*stream).level_buf = state.level_buffer.as_mut_ptr();
                (*stream).level_buf_size = buffer_size as u32;
                (*stream).gzip_flag = sys::IGZIP_DEFLATE as u16;
                (*stream).flush = if last { sys::NO_FLUSH } else { sys::FULL_FLUSH } as u16;
                (*stream).end_of_stream = u16::from(last);
                (*stream).next_in = input.as_ptr().cast_mut();
                (*stream).avail_in = input.len() as u32;
                (*stream).next_out = room.as_mut_ptr().cast();
                (*stream).avail_out = avail as u32;
                sys::isal_deflate_stateless(stream)
            };
            if status == sys::STATELESS_OVERFLOW {
                return Ok(None);
            }
            if status != sys::COMP_OK as i32 {
                return Err(Error::Internal(
                    format!("ISA-L refused to compress (status {status})").into(),
                ));
            }
            // SAFETY: set by the call above.
            written += unsafe { (*stream).total_out } as usize;
            if last {
                return Ok(Some(written));
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::deflate::{Format, decompress};

    fn corpus(len: usize) -> Vec<u8> {
        let text = b"v 1.000000 2.000000 3.000000\nvn 0.0000 1.0000 0.0000\nf 1//1 2//2 3//3\n";
        let mut data: Vec<u8> = text.iter().copied().cycle().take(len).collect();
        let mut x = 12_345_u32;
        for byte in data.iter_mut().step_by(7) {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            *byte ^= (x >> 24) as u8 & 3;
        }
        data
    }

    fn round_trip(data: &[u8], level: i32, piece: usize) -> usize {
        let mut out = vec![MaybeUninit::uninit(); bound_in_pieces(data.len(), piece)];
        let n = compress_in_pieces(data, level, &mut out, piece)
            .unwrap()
            .unwrap();
        // SAFETY: the first n bytes were written.
        let packed: Vec<u8> = out[..n]
            .iter()
            .map(|b| unsafe { b.assume_init() })
            .collect();
        let mut back = Vec::new();
        decompress(&packed, Format::Raw, None, None, &mut back).unwrap();
        assert_eq!(back, data, "level {level}, piece {piece}");
        n
    }

    #[test]
    fn every_level_round_trips_through_libdeflate() {
        for len in [0, 1, 100, 70_000, 1 << 20] {
            let data = corpus(len);
            for level in 1..=3 {
                let n = round_trip(&data, level, PIECE);
                assert!(n <= bound(len));
                if len >= 70_000 {
                    assert!(n < len / 2, "level {level} compressed {len} bytes to {n}");
                }
            }
        }
    }

    #[test]
    fn pieces_make_one_stream() {
        let data = corpus(1 << 20);
        for piece in [1 << 16, 100_000, 1 << 20] {
            round_trip(&data, 1, piece);
        }
    }

    #[test]
    fn random_bytes_fall_back_to_stored_blocks() {
        let mut x = 7_u64;
        let data: Vec<u8> = (0..300_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let n = round_trip(&data, 3, PIECE);
        assert!(n <= bound(data.len()));
        // In pieces that do not fall on block boundaries, each stored.
        for piece in [65_536, 100_000] {
            round_trip(&data, 1, piece);
        }
    }

    #[test]
    fn a_small_buffer_is_reported() {
        let data = corpus(10_000);
        let mut out = vec![MaybeUninit::uninit(); 100];
        assert_eq!(compress(&data, 1, &mut out).unwrap(), None);
    }
}
