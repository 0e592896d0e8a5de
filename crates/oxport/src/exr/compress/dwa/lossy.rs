//! DWA's lossy DCT channels, decoded as OpenEXR decodes them: per 8×8
//! block, each channel's DC and run-length coded AC coefficients (halves,
//! in zig-zag order) to floats, the inverse DCT (or, for a block with no
//! AC, its DC spread), Y'CbCr to R'G'B' for a triple, floats to halves
//! (for a block that is constant in every channel, one value), then the
//! perceptual transfer undone through a table of halves.

use std::sync::OnceLock;

use super::fma::Fma;
use super::idct::{self, Order};
use crate::half;
use crate::{Error, Result};

/// The AC and DC coefficients of a chunk, consumed channel by channel.
pub(crate) struct Coefficients<'a> {
    ac: &'a [u16],
    dc: &'a [u16],
    order: Order,
}

impl<'a> Coefficients<'a> {
    pub(crate) fn new(ac: &'a [u16], dc: &'a [u16]) -> Self {
        Coefficients {
            ac,
            dc,
            order: Order::of_this_cpu(),
        }
    }
}

/// Where a channel's decoded rows go: the offset of each row in the
/// chunk, and whether the channel is FLOAT (its halves widened).
pub(crate) struct Target<'a> {
    pub rows: &'a [usize],
    pub float: bool,
}

/// The zig-zag index of each coefficient of a row-major block.
pub(super) const ZIGZAG: [usize; 64] = [
    0, 1, 5, 6, 14, 15, 27, 28, 2, 4, 7, 13, 16, 26, 29, 42, 3, 8, 12, 17, 25, 30, 41, 43, 9, 11,
    18, 24, 31, 40, 44, 53, 10, 19, 23, 32, 39, 45, 52, 54, 20, 22, 33, 38, 46, 51, 55, 60, 21, 34,
    37, 47, 50, 56, 59, 61, 35, 36, 48, 49, 57, 58, 62, 63,
];

/// The last zig-zag index before which each count of zero rows (7 down
/// to 1) holds: a block whose last non-zero coefficient comes before
/// index 2 has seven zero rows, and so on.
const ROW_STARTS: [usize; 7] = [2, 3, 9, 10, 20, 21, 35];

/// OpenEXR's table undoing DWA's perceptual transfer: x^2.2 up to 1,
/// e^(2.2(x−1))·… above (as `powf` gives them), signs kept, infinities and
/// NaNs to 0.
fn to_linear() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        super::transfer_table(|f| {
            let (base, power) = if f <= 1.0 {
                (f, 2.2f32)
            } else {
                // OpenEXR's 9.02501329156 (e^2.2) as an f32.
                (9.025_013_f32, f - 1.0)
            };
            base.powf(power)
        })
    })
}

/// Where each zig-zag index lands in a row-major block.
const FROM_ZIGZAG: [u8; 64] = {
    let mut inverse = [0; 64];
    let mut i = 0;
    while i < 64 {
        inverse[ZIGZAG[i]] = i as u8;
        i += 1;
    }
    inverse
};

/// Un-runs the AC coefficients of one block into `halves` (row-major, all
/// zero): a value with high byte 0xff stands for that many zeros (0: the
/// rest of the block). Returns the zig-zag index of the last value stored
/// (0: the block has only its DC).
fn unrun(ac: &mut &[u16], halves: &mut [u16; 64]) -> Result<usize> {
    let mut values = *ac;
    let mut at = 1;
    let mut last = 0;
    // Most blocks of a detailed image hold long stretches of coefficients
    // without runs: eight at a time while there are.
    while at + 8 <= 64 {
        let Some((group, rest)) = values.split_first_chunk::<8>() else {
            break;
        };
        if group.iter().fold(false, |run, &v| run | (v >= 0xff00)) {
            break;
        }
        for (i, &value) in group.iter().enumerate() {
            halves[usize::from(FROM_ZIGZAG[at + i]) & 63] = value;
        }
        at += 8;
        last = at - 1;
        values = rest;
    }
    let mut values = values.iter();
    while at < 64 {
        let Some(&value) = values.next() else {
            return Err(Error::corrupt("a DWA chunk's AC coefficients end early"));
        };
        if value >= 0xff00 {
            let run = usize::from(value & 0xff);
            at += if run == 0 { 64 } else { run };
        } else {
            last = at;
            halves[usize::from(FROM_ZIGZAG[at]) & 63] = value;
            at += 1;
        }
    }
    *ac = values.as_slice();
    Ok(last)
}

/// The steps of a block that some CPUs do in vector registers, and do
/// there in OpenEXR: halves to floats, the inverse DCT, floats to halves.
trait Kernel: Copy {
    fn to_floats(self, halves: &[u16; 64], block: &mut [f32; 64]);
    /// The inverse DCT of a block whose last `zeroed` rows are zero.
    fn inverse(self, block: &mut [f32; 64], zeroed: usize);
    fn to_halves(self, block: &[f32; 64], halves: &mut [u16; 64]);
}

/// Plain arithmetic, with the inverse DCT in `Order`.
#[derive(Clone, Copy)]
struct Portable(Order);

impl Kernel for Portable {
    #[inline(always)]
    fn to_floats(self, halves: &[u16; 64], block: &mut [f32; 64]) {
        let table = half::table();
        for (f, &h) in block.iter_mut().zip(halves) {
            *f = table[usize::from(h)];
        }
    }

    #[inline(always)]
    fn inverse(self, block: &mut [f32; 64], zeroed: usize) {
        self.0.inverse(block, zeroed);
    }

    #[inline(always)]
    fn to_halves(self, block: &[f32; 64], halves: &mut [u16; 64]) {
        for (h, &f) in halves.iter_mut().zip(block) {
            *h = half::from_f32(f);
        }
    }
}

/// AVX and F16C, as OpenEXR on a CPU with both. Made only where the CPU
/// has them (`Avx::new`).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Avx(());

#[cfg(target_arch = "x86_64")]
impl Avx {
    fn new() -> Option<Avx> {
        half::f16c::available().then_some(Avx(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernel for Avx {
    #[inline(always)]
    fn to_floats(self, halves: &[u16; 64], block: &mut [f32; 64]) {
        // SAFETY: an `Avx` exists only where the CPU has AVX and F16C.
        unsafe { half::f16c::to_f32_64(halves, block) }
    }

    #[inline(always)]
    fn inverse(self, block: &mut [f32; 64], zeroed: usize) {
        // SAFETY: as above.
        unsafe { idct::avx::intrinsics::inverse(block, 8 - zeroed) }
    }

    #[inline(always)]
    fn to_halves(self, block: &[f32; 64], halves: &mut [u16; 64]) {
        // SAFETY: as above.
        unsafe { half::f16c::from_f32_64(block, halves) }
    }
}

/// Decodes the blocks of one channel, or of an R, G, B triple (Y'CbCr in
/// the chunk), of `width × height` samples into their rows of `out`.
/// `linear`: undo the perceptual transfer (a triple always does).
pub(crate) fn decode(
    coefficients: &mut Coefficients,
    targets: &[Target],
    width: usize,
    height: usize,
    linear: bool,
    out: &mut [u8],
) -> Result<()> {
    let order = coefficients.order;
    #[cfg(target_arch = "x86_64")]
    if order == Order::Avx
        && let Some(avx) = Avx::new()
    {
        // SAFETY: `Avx::new` found AVX and F16C.
        return unsafe { decode_avx(avx, coefficients, targets, width, height, linear, out) };
    }
    decode_blocks(
        Portable(order),
        coefficients,
        targets,
        width,
        height,
        linear,
        out,
    )
}

/// `decode_blocks` compiled for AVX and F16C, so that the kernel's
/// instructions are inlined into its loop.
///
/// # Safety
/// The CPU must have AVX and F16C.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx,f16c")]
unsafe fn decode_avx(
    avx: Avx,
    coefficients: &mut Coefficients,
    targets: &[Target],
    width: usize,
    height: usize,
    linear: bool,
    out: &mut [u8],
) -> Result<()> {
    decode_blocks(avx, coefficients, targets, width, height, linear, out)
}

#[inline(always)]
fn decode_blocks<K: Kernel>(
    kernel: K,
    coefficients: &mut Coefficients,
    targets: &[Target],
    width: usize,
    height: usize,
    linear: bool,
    out: &mut [u8],
) -> Result<()> {
    let count = targets.len();
    let (across, down) = (width.div_ceil(8), height.div_ceil(8));
    let blocks = across * down;
    if coefficients.dc.len() < count * blocks {
        return Err(Error::corrupt(
            "a DWA chunk has fewer DC values than blocks",
        ));
    }
    let (dc, rest) = coefficients.dc.split_at(count * blocks);
    coefficients.dc = rest;
    let table = if linear { Some(to_linear()) } else { None };
    // One row of blocks of halves per channel.
    let mut halves = vec![vec![[0u16; 64]; across]; count];
    let mut blocks_f32 = vec![[0f32; 64]; count];
    for by in 0..down {
        for bx in 0..across {
            let mut constant = true;
            for (k, block) in blocks_f32.iter_mut().enumerate() {
                let mut coded = [0u16; 64];
                let last = unrun(&mut coefficients.ac, &mut coded)?;
                let dc = dc[k * blocks + by * across + bx];
                if last == 0 {
                    block[0] = half::to_f32(dc);
                    idct::dc_only(block);
                } else {
                    constant = false;
                    coded[0] = dc;
                    kernel.to_floats(&coded, block);
                    let zeroed = ROW_STARTS
                        .iter()
                        .position(|&s| last < s)
                        .map_or(0, |i| 7 - i);
                    kernel.inverse(block, zeroed);
                }
            }
            // A triple: Y'CbCr back to R'G'B' (aarch64's build fuses each
            // product into the sum it feeds; nothing here is ambiguous).
            if let [r, g, b] = &mut blocks_f32[..] {
                let n = if constant { 1 } else { 64 };
                let pixels = r.iter_mut().zip(g.iter_mut()).zip(b.iter_mut()).take(n);
                if coefficients.order == Order::Fused {
                    for ((r, g), b) in pixels {
                        let (y, cb, cr) = (*r, *g, *b);
                        *r = 1.5747f32.fma(cr, y);
                        *g = (-0.4682f32).fma(cr, (-0.1873f32).fma(cb, y));
                        *b = 1.8556f32.fma(cb, y);
                    }
                } else {
                    for ((r, g), b) in pixels {
                        let (y, cb, cr) = (*r, *g, *b);
                        *r = y + 1.5747 * cr;
                        *g = y - 0.1873 * cb - 0.4682 * cr;
                        *b = y + 1.8556 * cb;
                    }
                }
            }
            for (block, row) in blocks_f32.iter().zip(&mut halves) {
                let dst = &mut row[bx];
                if constant {
                    dst.fill(half::from_f32(block[0]));
                } else {
                    kernel.to_halves(block, dst);
                }
            }
        }
        // The row of blocks to the channels' rows, through the transfer
        // table.
        let lines = 8.min(height - 8 * by);
        for (target, blocks_row) in targets.iter().zip(&halves) {
            let rows = &target.rows[8 * by..8 * by + lines];
            match table {
                Some(table) => store(blocks_row, rows, target.float, width, out, |h| {
                    table[usize::from(h)]
                }),
                None => store(blocks_row, rows, target.float, width, out, |h| h),
            }
        }
    }
    Ok(())
}

/// Stores the lines of a row of blocks (`rows`: where each line goes in
/// `out`), each half through `transfer`, widened for a FLOAT channel.
#[inline(always)]
fn store(
    blocks: &[[u16; 64]],
    rows: &[usize],
    float: bool,
    width: usize,
    out: &mut [u8],
    transfer: impl Fn(u16) -> u16,
) {
    let to_float = half::table();
    for (line, &at) in rows.iter().enumerate() {
        // Constant sample sizes, so that each store is one move.
        if float {
            let row = &mut out[at..at + width * 4];
            for (block, pixels) in blocks.iter().zip(row.chunks_mut(32)) {
                let source = &block[8 * line..8 * line + 8];
                for (&h, pixel) in source.iter().zip(pixels.chunks_exact_mut(4)) {
                    let v = to_float[usize::from(transfer(h))];
                    pixel.copy_from_slice(&v.to_bits().to_le_bytes());
                }
            }
        } else {
            let row = &mut out[at..at + width * 2];
            for (block, pixels) in blocks.iter().zip(row.chunks_mut(16)) {
                let source = &block[8 * line..8 * line + 8];
                for (&h, pixel) in source.iter().zip(pixels.chunks_exact_mut(2)) {
                    pixel.copy_from_slice(&transfer(h).to_le_bytes());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_fill_zeros_and_end_blocks() {
        let mut block = [0u16; 64];
        let coded = [0x3c00, 0xff03, 0x4000, 0xff00, 7];
        let mut ac: &[u16] = &coded;
        assert_eq!(unrun(&mut ac, &mut block).unwrap(), 5);
        // Zig-zag 1 is row 0 column 1; 5 is row 0 column 2.
        assert_eq!(
            (block[1], block[8], block[2], block[3]),
            (0x3c00, 0, 0x4000, 0)
        );
        assert_eq!(ac, &[7]);
        assert_eq!(FROM_ZIGZAG[ZIGZAG[17]], 17);
        let mut short: &[u16] = &[0x3c00];
        assert!(unrun(&mut short, &mut [0; 64]).is_err());
    }

    #[test]
    fn the_transfer_table_keeps_signs_and_maps_one_to_one() {
        let table = to_linear();
        assert_eq!(table[0x3c00], 0x3c00);
        assert_eq!(table[0xbc00], 0xbc00);
        assert_eq!(table[0x7c00], 0);
        assert_eq!(table[0], 0);
        // 0.5^2.2 ≈ 0.2176.
        assert!((half::to_f32(table[0x3800]) - 0.2176).abs() < 1e-3);
    }
}
