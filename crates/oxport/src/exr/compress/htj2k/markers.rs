//! The JPEG 2000 codestream's markers (ITU-T T.800 Annex A, with T.814's
//! CAP and T.801's NLT): the image and tile geometry, each component's
//! coding and quantization parameters, and the tile-parts' data.
//!
//! What OpenEXR's files hold is read; what no HTJ2K chunk of OpenEXR holds
//! and this decoder does not do (code-blocks of Part 1's arithmetic coder,
//! progression changes, packed packet headers, regions of interest,
//! parameters that change per tile) is refused as unsupported, by name.

use crate::exr::cursor::Cursor;
use crate::{Error, Result};

const SOC: u16 = 0xFF4F;
const SIZ: u16 = 0xFF51;
const CAP: u16 = 0xFF50;
const COD: u16 = 0xFF52;
const COC: u16 = 0xFF53;
const TLM: u16 = 0xFF55;
const PLM: u16 = 0xFF57;
const PLT: u16 = 0xFF58;
const CPF: u16 = 0xFF59;
const QCD: u16 = 0xFF5C;
const QCC: u16 = 0xFF5D;
const RGN: u16 = 0xFF5E;
const POC: u16 = 0xFF5F;
const PPM: u16 = 0xFF60;
const PPT: u16 = 0xFF61;
const CRG: u16 = 0xFF63;
const COM: u16 = 0xFF64;
const NLT: u16 = 0xFF76;
const SOT: u16 = 0xFF90;
const SOD: u16 = 0xFF93;
const EOC: u16 = 0xFFD9;

/// The most components a codestream has (`Csiz`).
const MAX_COMPONENTS: u16 = 16384;

/// Code-block style: HT code-blocks (T.814).
const HT_BLOCKS: u8 = 0x40;
/// Code-block style with [`HT_BLOCKS`]: some code-blocks may use Part 1's coder.
const HT_MIXED: u8 = 0x80;

/// Packets' order in the codestream (`SGcod`'s progression order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Progression {
    /// Layer, resolution, component, position.
    Lrcp,
    /// Resolution, layer, component, position.
    Rlcp,
    /// Resolution, position, component, layer.
    Rpcl,
    /// Position, component, resolution, layer.
    Pcrl,
    /// Component, position, resolution, layer.
    Cprl,
}

/// How one component is coded (`COD`, or `COC` for it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Coding {
    /// Wavelet decomposition levels (0 to 32).
    pub(super) levels: u8,
    /// Code-blocks' nominal width and height, as powers of two.
    pub(super) block: (u8, u8),
    /// The reversible 5/3 wavelet (else the irreversible 9/7).
    pub(super) reversible: bool,
    /// Per resolution (0 first), the precincts' width and height as powers
    /// of two (15 each when the codestream gives none).
    pub(super) precincts: Vec<(u8, u8)>,
}

/// How one component's subbands are quantized (`QCD`, or `QCC` for it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Quantization {
    /// Guard bits (0 to 7).
    pub(super) guard: u8,
    /// No quantization: per subband (in codestream order: LL of the lowest
    /// resolution, then HL, LH and HH of each level) its exponent.
    /// Quantized codestreams (lossy) are refused before this is read.
    pub(super) exponents: Vec<u8>,
}

impl Quantization {
    /// The bit-planes (`Kmax`) of band `band` (its index in
    /// [`Quantization::exponents`]): guard bits and exponent, less one.
    pub(super) fn planes(&self, band: usize) -> Option<u8> {
        let exponent = *self.exponents.get(band)?;
        Some((self.guard + exponent).saturating_sub(1))
    }
}

/// One component of the image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Component {
    /// Bits per sample (1 to 38).
    pub(super) depth: u8,
    pub(super) signed: bool,
    /// Horizontal and vertical sampling (`XRsiz`, `YRsiz`, 1 to 255).
    pub(super) sampling: (u8, u8),
    pub(super) coding: Coding,
    pub(super) quantization: Quantization,
    /// Whether an NLT marker gives the binary-complement transform (type
    /// 3): negative samples hold a sign and magnitude, as IEEE floats do.
    pub(super) complement: bool,
}

/// An axis-aligned rectangle of the reference grid: `x0..x1`, `y0..y1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Rect {
    pub(super) x0: u32,
    pub(super) y0: u32,
    pub(super) x1: u32,
    pub(super) y1: u32,
}

/// One tile-part: its tile and its packets' bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TilePart<'a> {
    pub(super) tile: u16,
    pub(super) data: &'a [u8],
}

/// A codestream's headers, and its tile-parts in codestream order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Codestream<'a> {
    /// The image area on the reference grid.
    pub(super) image: Rect,
    /// The tile grid's origin.
    pub(super) tile_origin: (u32, u32),
    /// Each tile's size on the reference grid.
    pub(super) tile_size: (u32, u32),
    pub(super) components: Vec<Component>,
    pub(super) progression: Progression,
    pub(super) layers: u16,
    /// The reversible color transform on components 0 to 2.
    pub(super) color_transform: bool,
    /// Whether packets start with SOP markers (skipped) and packet headers
    /// end with EPH markers.
    pub(super) sop: bool,
    pub(super) eph: bool,
    pub(super) tile_parts: Vec<TilePart<'a>>,
}

impl Codestream<'_> {
    /// The number of tiles across and down.
    pub(super) fn tiles(&self) -> (u32, u32) {
        let across = (self.image.x1 - self.tile_origin.0).div_ceil(self.tile_size.0);
        let down = (self.image.y1 - self.tile_origin.1).div_ceil(self.tile_size.1);
        (across, down)
    }
}

fn unsupported(what: &str) -> Error {
    Error::Unsupported(format!("HTJ2K: {what}").into())
}

/// `COD`'s or `COC`'s parameters common to both (`SPcod`/`SPcoc`), after
/// `Scod`'s precinct flag `precincts`.
fn coding(cursor: &mut Cursor, precincts: bool) -> Result<Coding> {
    let levels = cursor.u8("a codestream's decomposition levels")?;
    let width = cursor.u8("a codestream's code-block width")?;
    let height = cursor.u8("a codestream's code-block height")?;
    let style = cursor.u8("a codestream's code-block style")?;
    let transform = cursor.u8("a codestream's wavelet")?;
    if levels > 32 || width > 8 || height > 8 || width + height > 8 || transform > 1 {
        return Err(cursor.corrupt("a codestream's coding parameters out of range"));
    }
    if style & HT_BLOCKS == 0 || style & HT_MIXED != 0 {
        return Err(unsupported(
            "code-blocks of JPEG 2000 Part 1's arithmetic coder (only HT code-blocks are read)",
        ));
    }
    if style & !(HT_BLOCKS | HT_MIXED) != 0 {
        return Err(unsupported(
            "code-block style options (bypass, resets, termination...)",
        ));
    }
    let precincts = (0..=levels)
        .map(|resolution| match precincts {
            false => Ok((15, 15)),
            true => {
                let size = cursor.u8("a codestream's precinct size")?;
                let (x, y) = (size & 15, size >> 4);
                if resolution > 0 && (x == 0 || y == 0) {
                    return Err(cursor.corrupt("a codestream's precinct size out of range"));
                }
                Ok((x, y))
            }
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Coding {
        levels,
        block: (width + 2, height + 2),
        reversible: transform == 1,
        precincts,
    })
}

/// `QCD`'s or `QCC`'s parameters (`Sqcd`, `SPqcd`), to the segment's end.
fn quantization(cursor: &mut Cursor) -> Result<Quantization> {
    let style = cursor.u8("a codestream's quantization style")?;
    if style & 31 != 0 {
        return Err(unsupported(
            "quantized (lossy) codestreams, as LJ2K writes them: OpenEXR marks that method \
             experimental, and oxport reads HTJ2K's lossless ones",
        ));
    }
    let mut exponents = Vec::with_capacity(cursor.remaining());
    while !cursor.is_empty() {
        exponents.push(cursor.u8("a codestream's subband exponent")? >> 3);
    }
    if exponents.is_empty() {
        return Err(cursor.corrupt("a codestream's quantization without subbands"));
    }
    Ok(Quantization {
        guard: style >> 5,
        exponents,
    })
}

/// The component a `COC`, `QCC` or NLT marker names (one byte, or two when
/// the image has more than 256 components).
fn component_index(cursor: &mut Cursor, components: usize) -> Result<usize> {
    let index = if components > 256 {
        usize::from(cursor.u16_be("a marker's component")?)
    } else {
        usize::from(cursor.u8("a marker's component")?)
    };
    if index >= components {
        return Err(cursor.corrupt("a marker names a component past the last"));
    }
    Ok(index)
}

/// The next marker and its segment (empty for markers without one).
fn segment<'a>(cursor: &mut Cursor<'a>) -> Result<(u16, Cursor<'a>)> {
    let marker = cursor.u16_be("a codestream marker")?;
    if marker >> 8 != 0xFF {
        return Err(cursor.corrupt("a codestream marker expected"));
    }
    if matches!(marker, SOC | SOD | EOC) || (0xFF30..=0xFF3F).contains(&marker) {
        return Ok((marker, Cursor::new(&[], cursor.offset())));
    }
    let length = cursor.u16_be("a marker segment's length")?;
    if length < 2 {
        return Err(cursor.corrupt("a marker segment shorter than its length field"));
    }
    let base = cursor.offset();
    let bytes = cursor.take(
        usize::from(length) - 2,
        "a marker segment past the codestream's end",
    )?;
    Ok((marker, Cursor::new(bytes, base)))
}

/// The image from `SIZ`: its area, the tile grid, and per component its
/// depth, sign and sampling.
struct Size {
    image: Rect,
    tile_origin: (u32, u32),
    tile_size: (u32, u32),
    components: Vec<(u8, bool, (u8, u8))>,
}

fn size(cursor: &mut Cursor) -> Result<Size> {
    let _capabilities = cursor.u16_be("SIZ's capabilities")?;
    let mut next = || cursor.u32_be("SIZ's image and tile sizes");
    let (x1, y1, x0, y0) = (next()?, next()?, next()?, next()?);
    let (tile_width, tile_height, tile_x0, tile_y0) = (next()?, next()?, next()?, next()?);
    let count = cursor.u16_be("SIZ's component count")?;
    if x0 >= x1 || y0 >= y1 || tile_width == 0 || tile_height == 0 {
        return Err(cursor.corrupt("SIZ: an empty image or tile"));
    }
    if tile_x0 > x0
        || tile_y0 > y0
        || u64::from(tile_x0) + u64::from(tile_width) <= u64::from(x0)
        || u64::from(tile_y0) + u64::from(tile_height) <= u64::from(y0)
    {
        return Err(cursor.corrupt("SIZ: the first tile does not hold the image's first sample"));
    }
    if count == 0 || count > MAX_COMPONENTS {
        return Err(cursor.corrupt("SIZ: a component count out of range"));
    }
    let components = (0..count)
        .map(|_| {
            let depth = cursor.u8("SIZ's component depth")?;
            let sampling = (
                cursor.u8("SIZ's component sampling")?,
                cursor.u8("SIZ's component sampling")?,
            );
            if (depth & 0x7F) > 37 || sampling.0 == 0 || sampling.1 == 0 {
                return Err(cursor.corrupt("SIZ: a component's depth or sampling out of range"));
            }
            Ok(((depth & 0x7F) + 1, depth & 0x80 != 0, sampling))
        })
        .collect::<Result<Vec<_>>>()?;
    if !cursor.is_empty() {
        return Err(cursor.corrupt("SIZ: a length that does not match its components"));
    }
    Ok(Size {
        image: Rect { x0, y0, x1, y1 },
        tile_origin: (tile_x0, tile_y0),
        tile_size: (tile_width, tile_height),
        components,
    })
}

/// Reads the headers and finds the tile-parts of `codestream`.
pub(super) fn read(codestream: &[u8]) -> Result<Codestream<'_>> {
    let mut cursor = Cursor::new(codestream, 0);
    if cursor.u16_be("a codestream's first marker")? != SOC {
        return Err(cursor.corrupt("a JPEG 2000 codestream without its SOC marker"));
    }
    let (marker, mut siz) = segment(&mut cursor)?;
    if marker != SIZ {
        return Err(cursor.corrupt("a codestream whose SIZ marker is not second"));
    }
    let size = size(&mut siz)?;
    let count = size.components.len();
    let mut cod = None;
    let mut cocs: Vec<Option<Coding>> = vec![None; count];
    let mut qcd = None;
    let mut qccs: Vec<Option<Quantization>> = vec![None; count];
    let mut complement = vec![false; count];
    let (mut progression, mut layers, mut color_transform) = (Progression::Lrcp, 1, false);
    let (mut sop, mut eph) = (false, false);
    loop {
        let start = cursor.offset();
        let (marker, mut body) = segment(&mut cursor)?;
        match marker {
            SOT => {
                cursor = Cursor::new(&codestream[start as usize..], start);
                break;
            }
            COD => {
                let style = body.u8("COD's style")?;
                progression = match body.u8("COD's progression order")? {
                    0 => Progression::Lrcp,
                    1 => Progression::Rlcp,
                    2 => Progression::Rpcl,
                    3 => Progression::Pcrl,
                    4 => Progression::Cprl,
                    _ => return Err(body.corrupt("COD: an unknown progression order")),
                };
                layers = body.u16_be("COD's layer count")?;
                let transform = body.u8("COD's color transform")?;
                if layers == 0 || transform > 1 || style & !7 != 0 {
                    return Err(body.corrupt("COD: parameters out of range"));
                }
                color_transform = transform == 1;
                (sop, eph) = (style & 2 != 0, style & 4 != 0);
                cod = Some(coding(&mut body, style & 1 != 0)?);
            }
            COC => {
                let index = component_index(&mut body, count)?;
                let style = body.u8("COC's style")?;
                cocs[index] = Some(coding(&mut body, style & 1 != 0)?);
            }
            QCD => qcd = Some(quantization(&mut body)?),
            QCC => {
                let index = component_index(&mut body, count)?;
                qccs[index] = Some(quantization(&mut body)?);
            }
            NLT => {
                let index = body.u16_be("NLT's component")?;
                let _depth = body.u8("NLT's depth")?;
                let kind = body.u8("NLT's type")?;
                let which: Vec<usize> = match index {
                    0xFFFF => (0..count).collect(),
                    i if usize::from(i) < count => vec![usize::from(i)],
                    _ => return Err(body.corrupt("NLT names a component past the last")),
                };
                match kind {
                    0 | 3 => which.into_iter().for_each(|c| complement[c] = kind == 3),
                    _ => return Err(unsupported("NLT's gamma and lookup-table transforms")),
                }
            }
            POC => return Err(unsupported("progression order changes (POC)")),
            PPM => return Err(unsupported("packed packet headers (PPM)")),
            RGN => return Err(unsupported("regions of interest (RGN)")),
            CAP | TLM | PLM | CPF | CRG | COM => {}
            SOC | SOD | EOC => return Err(body.corrupt("a codestream marker out of place")),
            // Markers this decoder does not know carry nothing it needs.
            _ => {}
        }
    }
    let (Some(cod), Some(qcd)) = (cod, qcd) else {
        return Err(cursor.corrupt("a codestream without its COD or QCD marker"));
    };
    let components = size
        .components
        .iter()
        .enumerate()
        .map(|(i, &(depth, signed, sampling))| Component {
            depth,
            signed,
            sampling,
            coding: cocs[i].clone().unwrap_or_else(|| cod.clone()),
            quantization: qccs[i].clone().unwrap_or_else(|| qcd.clone()),
            complement: complement[i],
        })
        .collect();
    let mut stream = Codestream {
        image: size.image,
        tile_origin: size.tile_origin,
        tile_size: size.tile_size,
        components,
        progression,
        layers,
        color_transform,
        sop,
        eph,
        tile_parts: Vec::new(),
    };
    let (across, down) = stream.tiles();
    let tiles = u64::from(across) * u64::from(down);
    stream.tile_parts = tile_parts(codestream, cursor, tiles)?;
    if stream.color_transform && stream.components.len() < 3 {
        return Err(cursor_error(
            codestream,
            "COD: a color transform with fewer than three components",
        ));
    }
    Ok(stream)
}

fn cursor_error(codestream: &[u8], what: &'static str) -> Error {
    Cursor::new(codestream, 0).corrupt(what)
}

/// The tile-parts from the first SOT marker at `cursor` to EOC (or the
/// codestream's end), of tiles below `tiles`.
fn tile_parts<'a>(
    codestream: &'a [u8],
    mut cursor: Cursor<'a>,
    tiles: u64,
) -> Result<Vec<TilePart<'a>>> {
    let mut parts = Vec::new();
    while !cursor.is_empty() {
        let start = cursor.offset() as usize;
        let (marker, mut sot) = segment(&mut cursor)?;
        match marker {
            EOC => break,
            SOT => {}
            _ => return Err(sot.corrupt("a tile-part expected (SOT)")),
        }
        let tile = sot.u16_be("SOT's tile")?;
        let length = sot.u32_be("SOT's tile-part length")? as usize;
        let _index = sot.u8("SOT's tile-part index")?;
        let _count = sot.u8("SOT's tile-part count")?;
        if u64::from(tile) >= tiles {
            return Err(sot.corrupt("SOT names a tile past the last"));
        }
        let end = match length {
            // The last tile-part: to EOC, or the end.
            0 => codestream
                .len()
                .checked_sub(2)
                .filter(|&e| codestream[e..] == EOC.to_be_bytes())
                .unwrap_or(codestream.len()),
            n => start
                .checked_add(n)
                .filter(|&e| e <= codestream.len())
                .ok_or_else(|| sot.corrupt("a tile-part past the codestream's end"))?,
        };
        loop {
            let (marker, body) = segment(&mut cursor)?;
            match marker {
                SOD => break,
                PLT | COM => {}
                COD | COC | QCD | QCC => {
                    return Err(unsupported("coding parameters that change per tile"));
                }
                POC => return Err(unsupported("progression order changes (POC)")),
                PPT => return Err(unsupported("packed packet headers (PPT)")),
                RGN => return Err(unsupported("regions of interest (RGN)")),
                _ => return Err(body.corrupt("a marker out of place in a tile-part header")),
            }
        }
        let data_start = cursor.offset() as usize;
        if data_start > end {
            return Err(cursor.corrupt("a tile-part header past its tile-part's end"));
        }
        parts.push(TilePart {
            tile,
            data: &codestream[data_start..end],
        });
        cursor = Cursor::new(&codestream[end..], end as u64);
    }
    Ok(parts)
}

/// The comment every codestream oxport writes carries.
const COMMENT: &[u8] = b"oxport";

/// Appends marker `marker` and its segment `body` (its length in front).
fn put_segment(marker: u16, body: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(&marker.to_be_bytes());
    out.extend_from_slice(&(body.len() as u16 + 2).to_be_bytes());
    out.extend_from_slice(body);
}

/// `Ssiz` (and NLT's `BDnlt`): bits less one, the sign in the top bit.
fn depth_byte(component: &Component) -> u8 {
    (component.depth - 1) | if component.signed { 0x80 } else { 0 }
}

/// `Sqcd`/`Sqcc` and the exponents of no quantization.
fn quantization_bytes(q: &Quantization, body: &mut Vec<u8>) {
    body.push(q.guard << 5);
    body.extend(q.exponents.iter().map(|e| e << 3));
}

/// Appends a codestream as OpenEXR's encoder (OpenJPH) lays it out: one
/// tile over the whole `width × height` image, `components` with the
/// coding of component 0 (one `COD`), a `QCC` for each whose depth or sign
/// differs from component 0's, an `NLT` for each with the binary
/// complement, a comment, `TLM`, and a tile-part per resolution holding
/// `tile_parts[r]`, the packets of resolution `r` (RPCL).
pub(super) fn write(
    width: u32,
    height: u32,
    components: &[Component],
    color_transform: bool,
    tile_parts: &[Vec<u8>],
    out: &mut Vec<u8>,
) {
    let first = &components[0];
    let coding = &first.coding;
    let complement = components.iter().any(|c| c.complement);
    out.extend_from_slice(&SOC.to_be_bytes());
    // SIZ: HTJ2K (bit 14), and Part 2's NLT (bits 15 and 9) when used.
    let mut body = Vec::with_capacity(38 + 3 * components.len());
    let rsiz: u16 = 0x4000 | if complement { 0x8200 } else { 0 };
    body.extend_from_slice(&rsiz.to_be_bytes());
    for v in [width, height, 0, 0, width, height, 0, 0] {
        body.extend_from_slice(&v.to_be_bytes());
    }
    body.extend_from_slice(&(components.len() as u16).to_be_bytes());
    for c in components {
        body.extend_from_slice(&[depth_byte(c), c.sampling.0, c.sampling.1]);
    }
    put_segment(SIZ, &body, out);
    // CAP: Part 15, and the most magnitude bits any band has (`MAGB`).
    let magb = components
        .iter()
        .flat_map(|c| {
            let q = &c.quantization;
            (0..q.exponents.len()).filter_map(|b| q.planes(b))
        })
        .max()
        .map_or(0, u32::from);
    let bp = match magb {
        0..=8 => 0,
        9..=27 => magb - 8,
        _ => 13 + (magb >> 2),
    };
    let mut body = 0x0002_0000u32.to_be_bytes().to_vec();
    body.extend_from_slice(&(bp as u16).to_be_bytes());
    put_segment(CAP, &body, out);
    // COD: RPCL, one layer, the color transform, default precincts.
    let mut body = vec![0, 2];
    body.extend_from_slice(&1u16.to_be_bytes());
    body.push(u8::from(color_transform));
    body.extend_from_slice(&[
        coding.levels,
        coding.block.0 - 2,
        coding.block.1 - 2,
        HT_BLOCKS,
        u8::from(coding.reversible),
    ]);
    put_segment(COD, &body, out);
    let mut body = Vec::new();
    quantization_bytes(&first.quantization, &mut body);
    put_segment(QCD, &body, out);
    let wide = components.len() > 256;
    for (index, c) in components.iter().enumerate().skip(1) {
        if (c.depth, c.signed) == (first.depth, first.signed) {
            continue;
        }
        let mut body = if wide {
            (index as u16).to_be_bytes().to_vec()
        } else {
            vec![index as u8]
        };
        quantization_bytes(&c.quantization, &mut body);
        put_segment(QCC, &body, out);
    }
    for (index, c) in components.iter().enumerate() {
        if c.complement {
            let mut body = (index as u16).to_be_bytes().to_vec();
            body.extend_from_slice(&[depth_byte(c), 3]);
            put_segment(NLT, &body, out);
        }
    }
    let mut body = 1u16.to_be_bytes().to_vec();
    body.extend_from_slice(COMMENT);
    put_segment(COM, &body, out);
    // A tile-part: SOT (12 bytes) and SOD (2) before its packets.
    let part_length = |data: &Vec<u8>| 14 + data.len() as u32;
    let mut body = vec![0, 0x60];
    for data in tile_parts {
        body.extend_from_slice(&0u16.to_be_bytes());
        body.extend_from_slice(&part_length(data).to_be_bytes());
    }
    put_segment(TLM, &body, out);
    for (r, data) in tile_parts.iter().enumerate() {
        let mut body = 0u16.to_be_bytes().to_vec();
        body.extend_from_slice(&part_length(data).to_be_bytes());
        body.extend_from_slice(&[r as u8, tile_parts.len() as u8]);
        put_segment(SOT, &body, out);
        out.extend_from_slice(&SOD.to_be_bytes());
        out.extend_from_slice(data);
    }
    out.extend_from_slice(&EOC.to_be_bytes());
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The chunks' data of the OpenEXR file `name` that OpenEXR's encoder
    /// wrote (`tests/data/htj2k/make.py`), found by their `HT` magic after
    /// their size.
    pub(in super::super) fn chunks(name: &str) -> Vec<Vec<u8>> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/htj2k")
            .join(name);
        let file = std::fs::read(path).unwrap();
        (8..file.len() - 2)
            .filter(|&i| file[i..i + 2] == *b"HT")
            .filter_map(|i| {
                let size = u32::from_le_bytes(file[i - 4..i].try_into().unwrap()) as usize;
                (i + size <= file.len()).then(|| file[i..i + size].to_vec())
            })
            .collect()
    }

    #[test]
    fn openexrs_codestreams_are_read() {
        let ht256 = chunks("rgb_z_id_ht256.exr");
        assert_eq!(ht256.len(), 1);
        let chunk = super::super::header::read(&ht256[0], 5).unwrap();
        // B, G, R, Z, id in the file; R, G, B first in the codestream.
        assert_eq!(chunk.channels, [2, 1, 0, 3, 4]);
        let stream = read(chunk.codestream).unwrap();
        assert_eq!(
            stream.image,
            Rect {
                x0: 0,
                y0: 0,
                x1: 53,
                y1: 37
            }
        );
        assert_eq!(stream.tiles(), (1, 1));
        let kinds: Vec<_> = stream
            .components
            .iter()
            .map(|c| {
                (
                    c.depth,
                    c.signed,
                    c.sampling,
                    c.complement,
                    c.quantization.guard,
                )
            })
            .collect();
        assert_eq!(
            kinds,
            [
                (16, true, (1, 1), true, 1),
                (16, true, (1, 1), true, 1),
                (16, true, (1, 1), true, 1),
                (32, true, (1, 1), true, 4),
                (32, false, (1, 1), false, 4),
            ]
        );
        for component in &stream.components {
            assert_eq!(
                component.coding,
                Coding {
                    levels: 5,
                    block: (7, 5),
                    reversible: true,
                    precincts: vec![(15, 15); 6],
                }
            );
            assert_eq!(component.quantization.exponents.len(), 16);
        }
        assert!(stream.color_transform);
        assert_eq!((stream.layers, stream.sop, stream.eph), (1, false, false));
        assert!(!stream.tile_parts.is_empty());
        assert!(stream.tile_parts.iter().all(|p| p.tile == 0));
        let data: usize = stream.tile_parts.iter().map(|p| p.data.len()).sum();
        assert!(data > 1000 && data < chunk.codestream.len(), "{data}");
        let gray = chunks("gray_ht256.exr");
        let stream = read(super::super::header::read(&gray[0], 1).unwrap().codestream).unwrap();
        assert!(!stream.color_transform);
        assert_eq!((stream.image.x1, stream.image.y1), (9, 200));
    }

    #[test]
    fn damaged_codestreams_are_corrupt_and_others_unsupported() {
        let chunk = &chunks("rgb_z_id_ht32.exr")[0];
        let codestream = &super::super::header::read(chunk, 5)
            .unwrap()
            .codestream
            .to_vec();
        // Every cut is refused (a cut inside the packets' data only shortens
        // the last tile-part) and no byte changed panics.
        for end in 0..codestream.len() {
            let _ = read(&codestream[..end]);
        }
        for at in 0..200.min(codestream.len()) {
            for value in [0x00, 0xFF, 0x7F, 0x90] {
                let mut damaged = codestream.clone();
                damaged[at] = value;
                let _ = read(&damaged);
            }
        }
        let corrupt = |bytes: &[u8]| matches!(read(bytes), Err(Error::Corrupt { .. }));
        assert!(corrupt(&codestream[..40]));
        assert!(corrupt(&codestream[2..]));
        // The code-block style of Part 1 (no HT bit) is unsupported, by name.
        let cod = codestream
            .windows(2)
            .position(|w| w == [0xFF, 0x52])
            .unwrap();
        let mut part1 = codestream.clone();
        part1[cod + 12] = 0;
        let error = read(&part1).unwrap_err().to_string();
        assert!(error.contains("arithmetic coder"), "{error}");
        // A quantized (lossy) codestream is unsupported.
        let qcd = codestream
            .windows(2)
            .position(|w| w == [0xFF, 0x5C])
            .unwrap();
        let mut lossy = codestream.clone();
        lossy[qcd + 4] |= 2;
        let error = read(&lossy).unwrap_err().to_string();
        assert!(error.contains("lossy"), "{error}");
    }
}
