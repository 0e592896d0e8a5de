//! A tile's packets (ITU-T T.800 B.9–B.10, with T.814's HT pass counts):
//! each packet header says which code-blocks of a precinct contribute,
//! their missing most significant bit-planes and passes, and the lengths of
//! their cleanup and refinement segments, whose bytes follow the header.
//!
//! Read as OpenEXR's files have them: one quality layer and one precinct
//! per resolution (others are refused before this, by name).

use super::geometry::{Band, Resolution};
use super::markers::{Codestream, Component, Progression, TilePart};
use crate::exr::cursor::Cursor;
use crate::{Error, Result};

const SOP: [u8; 2] = [0xFF, 0x91];
const EPH: [u8; 2] = [0xFF, 0x92];

/// One code-block's coded data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Block<'a> {
    /// Bit-planes its band may have (`Kmax`, from the guard bits and the
    /// band's exponent).
    pub(super) planes: u8,
    /// The most significant of those that are all zero here (placeholder
    /// passes counted in).
    pub(super) missing: u8,
    /// Coding passes: 1 (cleanup), 2 (and SigProp) or 3 (and MagRef).
    pub(super) passes: u8,
    /// The cleanup pass's segment (MagSgn, MEL and VLC bytes).
    pub(super) cleanup: &'a [u8],
    /// The SigProp and MagRef passes' segment.
    pub(super) refinement: &'a [u8],
}

/// What a packet header says of one code-block.
#[derive(Clone, Copy)]
struct Header {
    planes: u8,
    missing: u8,
    passes: u8,
    cleanup: usize,
    refinement: usize,
}

/// Per band of a resolution, its code-blocks in raster order (`None`: the
/// code-block contributes nothing, all its samples are 0).
pub(super) type Bands<'a> = Vec<Vec<Option<Block<'a>>>>;

/// A tile's coded data: per component, per resolution, per band.
pub(super) type TileBlocks<'a> = Vec<Vec<Bands<'a>>>;

/// Reads packet-header bits (most significant first), with T.800's bit
/// stuffing: after a byte `0xFF`, the next byte holds 7 bits.
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
    byte: u8,
    left: u8,
    stuffed: bool,
}

fn truncated() -> Error {
    Error::corrupt("an HTJ2K packet header past its tile-part's end")
}

impl<'a> Bits<'a> {
    fn new(data: &'a [u8], pos: usize) -> Self {
        Bits {
            data,
            pos,
            byte: 0,
            left: 0,
            stuffed: false,
        }
    }

    fn bit(&mut self) -> Result<bool> {
        if self.left == 0 {
            self.byte = *self.data.get(self.pos).ok_or_else(truncated)?;
            self.pos += 1;
            self.left = if self.stuffed { 7 } else { 8 };
            self.stuffed = self.byte == 0xFF;
        }
        self.left -= 1;
        Ok((self.byte >> self.left) & 1 == 1)
    }

    fn bits(&mut self, count: u32) -> Result<u32> {
        let mut value = 0;
        for _ in 0..count {
            value = (value << 1) | u32::from(self.bit()?);
        }
        Ok(value)
    }

    /// Where the header ends: past the byte a final `0xFF` stuffs.
    fn end(mut self) -> Result<usize> {
        if self.stuffed {
            self.data.get(self.pos).ok_or_else(truncated)?;
            self.pos += 1;
        }
        Ok(self.pos)
    }
}

/// A tag tree over a grid of code-blocks (T.800 B.10.2): each node holds
/// the least value of the leaves below it, learnt a bit at a time.
struct TagTree {
    /// Per level (leaves first): width, height and where its nodes start.
    levels: Vec<(u32, u32, usize)>,
    /// Per node: the value known so far to be its least, and whether it is
    /// its value.
    nodes: Vec<(u32, bool)>,
}

impl TagTree {
    fn new(width: u32, height: u32) -> Self {
        let (mut w, mut h, mut at) = (width, height, 0);
        let mut levels = Vec::new();
        loop {
            levels.push((w, h, at));
            at += w as usize * h as usize;
            if w <= 1 && h <= 1 {
                break;
            }
            (w, h) = (w.div_ceil(2), h.div_ceil(2));
        }
        TagTree {
            levels,
            nodes: vec![(0, false); at],
        }
    }

    /// Learns of leaf (`x`, `y`) whether its value is below `threshold`,
    /// and gives it when it is.
    fn below(&mut self, x: u32, y: u32, threshold: u32, bits: &mut Bits) -> Result<Option<u32>> {
        let mut floor = 0;
        for (level, &(width, _, at)) in self.levels.iter().enumerate().rev() {
            let level = level as u32;
            let node = &mut self.nodes[at + ((y >> level) * width + (x >> level)) as usize];
            node.0 = node.0.max(floor);
            while !node.1 && node.0 < threshold {
                if bits.bit()? {
                    node.1 = true;
                } else {
                    node.0 += 1;
                }
            }
            if !node.1 {
                return Ok(None);
            }
            floor = node.0;
        }
        Ok(Some(floor))
    }
}

/// The index in `QCD`'s exponents of band `band` of resolution `resolution`.
pub(super) fn band_index(resolution: usize, band: usize) -> usize {
    if resolution == 0 {
        0
    } else {
        3 * (resolution - 1) + 1 + band
    }
}

/// The packets of one tile, in the codestream's order: per packet its
/// component and resolution.
fn order(codestream: &Codestream) -> Vec<(usize, usize)> {
    let components = &codestream.components;
    let most = components
        .iter()
        .map(|c| c.coding.levels)
        .max()
        .unwrap_or(0);
    let mut packets = Vec::new();
    match codestream.progression {
        // One layer, one precinct per resolution: layer, resolution and
        // position orders all come to resolution, then component.
        Progression::Lrcp | Progression::Rlcp | Progression::Rpcl => {
            for r in 0..=usize::from(most) {
                for (c, component) in components.iter().enumerate() {
                    if r <= usize::from(component.coding.levels) {
                        packets.push((c, r));
                    }
                }
            }
        }
        Progression::Pcrl | Progression::Cprl => {
            for (c, component) in components.iter().enumerate() {
                for r in 0..=usize::from(component.coding.levels) {
                    packets.push((c, r));
                }
            }
        }
    }
    packets
}

/// Reads the packets of tile `tile` from its tile-parts, for the
/// resolutions `geometry` gives per component; with them, how many bytes
/// of the tile-parts no packet read.
pub(super) fn read<'a>(
    codestream: &Codestream<'a>,
    tile: u16,
    geometry: &[Vec<Resolution>],
) -> Result<(TileBlocks<'a>, usize)> {
    if codestream.layers != 1 {
        return Err(Error::Unsupported(
            "HTJ2K: more than one quality layer".into(),
        ));
    }
    let mut parts = codestream
        .tile_parts
        .iter()
        .filter(|p| p.tile == tile)
        .map(|p: &TilePart<'a>| p.data);
    let mut data: &'a [u8] = parts.next().unwrap_or(&[]);
    let mut pos = 0;
    let mut blocks: TileBlocks<'a> = geometry
        .iter()
        .map(|resolutions| {
            resolutions
                .iter()
                .map(|r| r.bands.iter().map(|_| Vec::new()).collect())
                .collect()
        })
        .collect();
    for (c, r) in order(codestream) {
        let resolution = &geometry[c][r];
        if resolution.rect.x0 == resolution.rect.x1 || resolution.rect.y0 == resolution.rect.y1 {
            // No precinct, no packet.
            continue;
        }
        // A packet lies in one tile-part: the next when this one is used up.
        while pos == data.len() {
            match parts.next() {
                Some(next) => (data, pos) = (next, 0),
                None => {
                    return Err(Error::corrupt(
                        "an HTJ2K tile with fewer packets than its precincts",
                    ));
                }
            }
        }
        let component = &codestream.components[c];
        let (bands, end) = packet(codestream, component, r, resolution, data, pos)?;
        blocks[c][r] = bands;
        pos = end;
    }
    let unread = data.len() - pos + parts.map(<[u8]>::len).sum::<usize>();
    Ok((blocks, unread))
}

/// One packet of `resolution` of `component`, at `pos` in `data`: its
/// code-blocks and where it ends.
fn packet<'a>(
    codestream: &Codestream,
    component: &Component,
    r: usize,
    resolution: &Resolution,
    data: &'a [u8],
    mut pos: usize,
) -> Result<(Bands<'a>, usize)> {
    if codestream.sop && data[pos..].starts_with(&SOP) {
        pos = pos
            .checked_add(6)
            .filter(|&end| end <= data.len())
            .ok_or_else(truncated)?;
    }
    let mut bits = Bits::new(data, pos);
    let present = bits.bit()?;
    // Per band, per code-block: missing planes, passes, segment lengths.
    let mut headers: Vec<Vec<Option<Header>>> = Vec::new();
    for (b, band) in resolution.bands.iter().enumerate() {
        let count = band.blocks.0 as usize * band.blocks.1 as usize;
        let mut coded = vec![None; count];
        if present && count > 0 {
            let planes = component
                .quantization
                .planes(band_index(r, b))
                .ok_or_else(|| {
                    Error::corrupt("an HTJ2K codestream without an exponent for a band")
                })?;
            block_headers(band, planes, &mut bits, &mut coded)?;
        }
        headers.push(coded);
    }
    pos = bits.end()?;
    if codestream.eph {
        if !data[pos..].starts_with(&EPH) {
            return Err(Error::corrupt(
                "an HTJ2K packet header without its EPH marker",
            ));
        }
        pos += 2;
    }
    let mut cursor = Cursor::new(&data[pos..], pos as u64);
    let bands = headers
        .into_iter()
        .map(|coded| {
            coded
                .into_iter()
                .map(|header| {
                    header
                        .map(|h| {
                            let past = "an HTJ2K code-block past its tile-part's end";
                            Ok(Block {
                                planes: h.planes,
                                missing: h.missing,
                                passes: h.passes,
                                cleanup: cursor.take(h.cleanup, past)?,
                                refinement: cursor.take(h.refinement, past)?,
                            })
                        })
                        .transpose()
                })
                .collect::<Result<Vec<_>>>()
        })
        .collect::<Result<Bands<'a>>>()?;
    let end = data.len() - cursor.remaining();
    Ok((bands, end))
}

/// The headers of the code-blocks of `band` in a packet: into `coded`, per
/// code-block included its planes (`Kmax` = `planes`), missing planes,
/// passes, and cleanup and refinement lengths.
fn block_headers(
    band: &Band,
    planes: u8,
    bits: &mut Bits,
    coded: &mut [Option<Header>],
) -> Result<()> {
    let (width, height) = band.blocks;
    let mut inclusion = TagTree::new(width, height);
    let mut zeros = TagTree::new(width, height);
    for y in 0..height {
        for x in 0..width {
            // One layer: included in it, or never.
            if inclusion.below(x, y, 1, bits)?.is_none() {
                continue;
            }
            let missing = zeros
                .below(x, y, u32::from(planes) + 1, bits)?
                .ok_or_else(|| {
                    Error::corrupt("an HTJ2K code-block missing more bit-planes than its band has")
                })?;
            let mut passes = 1u32;
            if bits.bit()? {
                passes = 2;
                if bits.bit()? {
                    passes = 3 + bits.bits(2)?;
                    if passes == 6 {
                        passes = 6 + bits.bits(5)?;
                        if passes == 37 {
                            passes = 37 + bits.bits(7)?;
                        }
                    }
                }
            }
            // Placeholder passes: each set of three stands for a bit-plane
            // the cleanup pass does not start at.
            let placeholders = (passes - 1) / 3;
            let missing = missing + placeholders;
            if missing > u32::from(planes) {
                return Err(Error::corrupt(
                    "an HTJ2K code-block missing more bit-planes than its band has",
                ));
            }
            let passes = passes - 3 * placeholders;
            let mut lblock = 3;
            while bits.bit()? {
                lblock += 1;
                if lblock > 24 {
                    return Err(Error::corrupt(
                        "an HTJ2K packet header's length field too long",
                    ));
                }
            }
            let cleanup = bits.bits(lblock + (3 * placeholders + 1).ilog2())? as usize;
            if !(2..65535).contains(&cleanup) {
                return Err(Error::corrupt(
                    "an HTJ2K cleanup segment of a length HT does not allow",
                ));
            }
            let refinement = match passes {
                1 => 0,
                _ => bits.bits(lblock + u32::from(passes > 2))? as usize,
            };
            if refinement >= 2047 {
                return Err(Error::corrupt(
                    "an HTJ2K refinement segment of a length HT does not allow",
                ));
            }
            coded[(y * width + x) as usize] = Some(Header {
                planes,
                missing: missing as u8,
                passes: passes as u8,
                cleanup,
                refinement,
            });
        }
    }
    Ok(())
}

/// Packet-header bits written most significant first, a byte `0xFF`
/// followed by one of 7 bits (T.800 B.10.1).
struct BitWriter {
    bytes: Vec<u8>,
    byte: u8,
    free: u8,
}

impl BitWriter {
    fn bit(&mut self, bit: bool) {
        self.free -= 1;
        self.byte |= u8::from(bit) << self.free;
        if self.free == 0 {
            self.bytes.push(self.byte);
            self.free = if self.byte == 0xFF { 7 } else { 8 };
            self.byte = 0;
        }
    }

    fn bits(&mut self, value: u32, count: u32) {
        for i in (0..count).rev() {
            self.bit(value >> i & 1 == 1);
        }
    }
}

/// A tag tree to write: per level (leaves first) its width and values (the
/// least of the nodes below), and which nodes' values are written.
struct TagWriter {
    levels: Vec<(u32, Vec<u32>)>,
    done: Vec<Vec<bool>>,
}

impl TagWriter {
    fn new(width: u32, height: u32, leaves: Vec<u32>) -> Self {
        let mut levels = vec![(width, leaves)];
        let (mut w, mut h) = (width, height);
        while w > 1 || h > 1 {
            let (pw, ph) = (w.div_ceil(2), h.div_ceil(2));
            let below = &levels.last().expect("a level").1;
            let mut values = vec![u32::MAX; (pw * ph) as usize];
            for y in 0..h {
                for x in 0..w {
                    let parent = &mut values[((y / 2) * pw + x / 2) as usize];
                    *parent = (*parent).min(below[(y * w + x) as usize]);
                }
            }
            levels.push((pw, values));
            (w, h) = (pw, ph);
        }
        let done = levels.iter().map(|(_, v)| vec![false; v.len()]).collect();
        TagWriter { levels, done }
    }

    /// The root's value.
    fn root(&self) -> u32 {
        self.levels.last().expect("a level").1[0]
    }

    /// Writes what leaf (`x`, `y`) needs of the nodes above it, root first:
    /// each node's value over its parent's as zeros and a one; with
    /// `threshold` 1 (inclusion), down to the first node above 0.
    fn write(&mut self, x: u32, y: u32, inclusion: bool, bits: &mut BitWriter) {
        let mut parent = 0;
        for level in (0..self.levels.len()).rev() {
            let (width, values) = &self.levels[level];
            let at = ((y >> level) * width + (x >> level)) as usize;
            let value = values[at];
            if !self.done[level][at] {
                self.done[level][at] = true;
                if inclusion {
                    bits.bit(value == parent);
                } else {
                    for _ in parent..value {
                        bits.bit(false);
                    }
                    bits.bit(true);
                }
            }
            if inclusion && value > 0 {
                return;
            }
            parent = value;
        }
    }
}

/// One band's code-blocks to write: across, down, and each one's coded
/// cleanup segment (`None`: left out).
pub(super) struct BandBlocks {
    pub(super) across: u32,
    pub(super) down: u32,
    pub(super) blocks: Vec<Option<super::encode_block::Coded>>,
}

/// Appends the packet of a precinct whose bands are `bands`: its header
/// (as OpenJPH writes it: one layer, one cleanup pass per code-block, the
/// shortest length fields) and its code-blocks' bytes; a packet of no
/// code-block is a single 0 byte.
pub(super) fn write(bands: &[BandBlocks], out: &mut Vec<u8>) {
    let mut bits = BitWriter {
        bytes: Vec::new(),
        byte: 0,
        free: 8,
    };
    let mut started = false;
    let mut empty_bands = 0;
    for band in bands {
        if band.blocks.is_empty() {
            continue;
        }
        let leaves = |f: fn(&super::encode_block::Coded) -> u32, none: u32| {
            band.blocks
                .iter()
                .map(|b| b.as_ref().map_or(none, f))
                .collect()
        };
        let mut inclusion = TagWriter::new(band.across, band.down, leaves(|_| 0, 1));
        let mut zeros = TagWriter::new(band.across, band.down, leaves(|b| u32::from(b.missing), 0));
        if inclusion.root() != 0 {
            // No code-block of the band: one bit, once the packet has begun.
            if started {
                bits.bit(false);
            } else {
                empty_bands += 1;
            }
            continue;
        }
        if !started {
            started = true;
            bits.bit(true);
            bits.bits(0, empty_bands);
        }
        for y in 0..band.down {
            for x in 0..band.across {
                inclusion.write(x, y, true, &mut bits);
                let Some(block) = &band.blocks[(y * band.across + x) as usize] else {
                    continue;
                };
                zeros.write(x, y, false, &mut bits);
                // One pass.
                bits.bit(false);
                let length = block.bytes.len() as u32;
                let extra = (32 - length.leading_zeros()).saturating_sub(3);
                bits.bits(u32::MAX - 1, extra + 1);
                bits.bits(length, extra + 3);
            }
        }
    }
    if !started {
        out.push(0);
        return;
    }
    if bits.free < 8 {
        bits.bytes.push(bits.byte);
    }
    out.extend_from_slice(&bits.bytes);
    for band in bands {
        for block in band.blocks.iter().flatten() {
            out.extend_from_slice(&block.bytes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::markers::tests::chunks;
    use super::super::{geometry, header, markers};
    use super::*;

    /// The packets of every chunk of `name`, with the bytes left unread.
    fn packets_of(name: &str, channels: usize) -> Vec<(usize, Vec<Block<'static>>)> {
        chunks(name)
            .into_iter()
            .map(|chunk| {
                let chunk: &'static [u8] = Vec::leak(chunk);
                let codestream =
                    markers::read(header::read(chunk, channels).unwrap().codestream).unwrap();
                let shapes = geometry::tile_resolutions(&codestream, 0).unwrap();
                let (blocks, unread) = read(&codestream, 0, &shapes).unwrap();
                let all = blocks
                    .into_iter()
                    .flatten()
                    .flatten()
                    .flatten()
                    .flatten()
                    .collect();
                (unread, all)
            })
            .collect()
    }

    #[test]
    fn openexrs_packets_are_read_to_their_last_byte() {
        for (name, channels, chunks) in [
            ("rgb_z_id_ht256.exr", 5, 1),
            ("rgb_z_id_ht32.exr", 5, 2),
            ("gray_ht256.exr", 1, 1),
        ] {
            let packets = packets_of(name, channels);
            assert_eq!(packets.len(), chunks, "{name}");
            for (unread, blocks) in packets {
                assert_eq!(unread, 0, "{name}");
                assert!(!blocks.is_empty(), "{name}");
                for block in blocks {
                    // OpenEXR's encoder codes one cleanup pass per code-block.
                    assert_eq!(block.passes, 1, "{name}");
                    assert!(
                        block.cleanup.len() >= 2 && block.refinement.is_empty(),
                        "{name}"
                    );
                    assert!(block.missing < block.planes, "{name}");
                }
            }
        }
    }

    #[test]
    fn tag_trees_give_what_was_coded() {
        // A 3 × 2 tree's leaves 1, 0, 2 / 3, 1, 0 (T.800's own scheme):
        // the root (0) is coded first, then each leaf from its parent's value.
        let mut tree = TagTree::new(3, 2);
        assert_eq!(tree.levels, [(3, 2, 0), (2, 1, 6), (1, 1, 8)]);
        // Leaf (0, 0) = 1 below threshold 2: root 0 ("1"), level 1 node 0
        // ("1"), the leaf 1 ("0 1").
        let bytes = [0b1101_0000];
        let mut bits = Bits::new(&bytes, 0);
        assert_eq!(tree.below(0, 0, 2, &mut bits).unwrap(), Some(1));
        // Leaf (1, 0) = 0: its parent is known (0); "1".
        // Leaf (2, 0) = 2 under threshold 2: its parent (2 at most) "0 0", unknown.
        let bytes = [0b1000_0000];
        let mut bits = Bits::new(&bytes, 0);
        assert_eq!(tree.below(1, 0, 2, &mut bits).unwrap(), Some(0));
        assert_eq!(tree.below(2, 0, 2, &mut bits).unwrap(), None);
        assert_eq!(bits.pos, 1);
        assert_eq!(bits.left, 5);
    }

    #[test]
    fn stuffed_bytes_hold_seven_bits_and_a_final_ff_takes_one_more() {
        let bytes = [0xFF, 0x7F, 0x80, 0x00];
        let mut bits = Bits::new(&bytes, 0);
        assert_eq!(bits.bits(8).unwrap(), 0xFF);
        // After 0xFF only seven bits: 0x7F's low seven.
        assert_eq!(bits.bits(7).unwrap(), 0x7F);
        assert_eq!(bits.bits(8).unwrap(), 0x80);
        assert_eq!(bits.end().unwrap(), 3);
        let mut ends_in_ff = Bits::new(&bytes, 0);
        ends_in_ff.bits(3).unwrap();
        assert_eq!(ends_in_ff.end().unwrap(), 2);
        assert!(Bits::new(&bytes[..1], 0).bits(9).is_err());
    }
}
