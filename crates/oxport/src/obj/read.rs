//! Reading OBJ files, in three passes:
//!
//! 1. The text is cut into newline-aligned blocks, parsed on all cores into
//!    their elements, their faces' raw indices (and smooth groups, once an `s`
//!    appears) and the few statements that change state (`o`, `g`, `usemtl`,
//!    `mtllib`).
//! 2. On one thread, those statements alone, in file order: the objects, the
//!    runs of faces ("segments") each owns in each block, and so the final
//!    size of every array.
//! 3. On all cores again: each segment resolves its faces' indices straight
//!    into its object's arrays, then each object copies its elements.
//!
//! Indices in a file are global and 1-based (negative ones count back from the
//! last element declared); a [`Mesh`] holds 0-based indices into its own
//! arrays. Each object owns the `v`, `vt` and `vn` lines declared after its `o`
//! (Blender's files and most others); an element it uses from elsewhere is
//! copied into it.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Read;
use std::ops::Range;
use std::path::Path;

use crate::mesh::Mesh;
use crate::pipeline::Pipeline;
use crate::{Error, Result};

/// How to read.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// Parsing threads; `None` is one per core.
    pub threads: Option<usize>,
    /// Unknown statements are errors (otherwise skipped and counted).
    pub strict: bool,
}

/// What an OBJ file holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub meshes: Vec<Mesh<'static>>,
    /// The `mtllib` statements' texts, in file order.
    pub mtllibs: Vec<String>,
    /// The comment lines that open the file, without `#` and one space.
    pub header: Vec<String>,
    /// Statements skipped: unknown ones (not in strict mode), and those read
    /// but not kept yet (`p` points, free-form curves).
    pub skipped: u64,
}

/// Reads the OBJ file at `path`, memory-mapped (read into memory when it
/// cannot be mapped: a pipe, an empty file).
pub fn read(path: &Path, options: &ReadOptions) -> Result<Scene> {
    let file = std::fs::File::open(path).map_err(|e| Error::io_at(path, e))?;
    // SAFETY: a private read-only map. Like every reader of mapped files, this
    // relies on no other process truncating the file while it is read (the
    // process would get SIGBUS); a file changed in place only gives other text.
    let map = unsafe { memmap2::MmapOptions::new().map(&file) };
    let result = match map {
        Ok(map) => read_bytes(&map, options),
        Err(_) => {
            let mut data = Vec::new();
            (&file)
                .read_to_end(&mut data)
                .map_err(|e| Error::io_at(path, e))?;
            read_bytes(&data, options)
        }
    };
    result.map_err(|error| error.in_file(path))
}

/// Reads OBJ text from a stream (all of it, then parsed as [`read_bytes`]).
pub fn read_from(mut reader: impl Read, options: &ReadOptions) -> Result<Scene> {
    let mut data = Vec::new();
    reader.read_to_end(&mut data)?;
    read_bytes(&data, options)
}

/// Reads OBJ text: UTF-8 (or ASCII, or Latin-1 in names), with or without a
/// byte order mark, or UTF-16 with one.
pub fn read_bytes(data: &[u8], options: &ReadOptions) -> Result<Scene> {
    match data {
        [0xEF, 0xBB, 0xBF, rest @ ..] => parse(rest, options),
        [0xFE, 0xFF, rest @ ..] => parse(&from_utf16(rest, u16::from_be_bytes)?, options),
        [0xFF, 0xFE, rest @ ..] => parse(&from_utf16(rest, u16::from_le_bytes)?, options),
        _ => parse(data, options),
    }
}

/// UTF-16 text (after its byte order mark) as UTF-8.
fn from_utf16(data: &[u8], unit: fn([u8; 2]) -> u16) -> Result<Vec<u8>> {
    let mut text = String::with_capacity(data.len() / 2);
    let units = data.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
    let error = |text: &str, reason| parse_error(line_count(text.as_bytes()) + 1, reason);
    for c in char::decode_utf16(units) {
        let c = c.map_err(|_| error(&text, "UTF-16 text with an unpaired surrogate"))?;
        text.push(c);
    }
    if data.len() % 2 == 1 {
        return Err(error(&text, "UTF-16 text with an odd number of bytes"));
    }
    Ok(text.into_bytes())
}

fn parse(data: &[u8], options: &ReadOptions) -> Result<Scene> {
    let pipeline = Pipeline::new(options.threads)?;
    let starts = block_starts(data, pipeline.threads() * 4);
    let texts: Vec<&[u8]> = starts.windows(2).map(|w| &data[w[0]..w[1]]).collect();
    // Lines are counted from a block's start: add the lines before it.
    let located = |(block, error): (usize, Error)| match error {
        Error::Parse { path, line, reason } => Error::Parse {
            path,
            line: line + line_count(&data[..starts[block]]),
            reason,
        },
        other => other,
    };
    let parsed = pipeline.map(texts.into_iter().enumerate().collect(), |(i, text)| {
        parse_block(text, options.strict).map_err(|e| (i, e))
    });
    let blocks = parsed
        .into_iter()
        .collect::<Located<Vec<_>>>()
        .map_err(located)?;
    let mut scene = Scene {
        header: header(data),
        skipped: blocks.iter().map(|b| b.skipped).sum(),
        ..Scene::default()
    };
    let elements = Elements::new(&blocks);
    let (plans, mut arrays) = plan(&blocks, &elements, &mut scene.mtllibs).map_err(located)?;
    let foreign = resolve(&pipeline, &blocks, &elements, &plans, &mut arrays).map_err(located)?;
    let mut work = Vec::with_capacity(plans.len());
    let mut foreign = foreign.into_iter();
    for (plan, arrays) in plans.into_iter().zip(arrays) {
        let found: Vec<Foreign> = foreign.by_ref().take(plan.segments.len()).collect();
        work.push((plan, arrays, found));
    }
    let colors = if blocks.iter().any(|b| !b.colors.is_empty()) {
        Colors::Vertex
    } else if blocks.iter().any(|b| !b.mrgb.is_empty()) {
        Colors::Mrgb(blocks.iter().flat_map(|b| &b.mrgb).copied().collect())
    } else {
        Colors::None
    };
    scene.meshes = pipeline.map(work, |(plan, arrays, found)| {
        build(plan, arrays, &found, &blocks, &elements, &colors)
    });
    Ok(scene)
}

/// An error in a block (its line counted from the block's start).
type Located<T> = std::result::Result<T, (usize, Error)>;

/// Where the vertex colors come from: `v x y z r g b` lines (preferred), or
/// ZBrush's `#MRGB` comments (the file's n-th color is its n-th vertex's).
enum Colors {
    None,
    Vertex,
    Mrgb(Vec<[f32; 3]>),
}

fn line_count(data: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', data).count() as u64
}

/// The comment lines before the first statement.
fn header(data: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    for line in data.split(|&b| b == b'\n') {
        let line = trim(line);
        match line.strip_prefix(b"#") {
            Some(text) => {
                let text = text.strip_prefix(b" ").unwrap_or(text);
                lines.push(String::from_utf8_lossy(text).into_owned());
            }
            None if line.is_empty() => {}
            None => break,
        }
    }
    lines
}

/// The smallest block: below it, starting threads costs more than they save.
/// (Built for fuzzing, small inputs are cut into many blocks.)
#[cfg(not(fuzzing))]
const MIN_BLOCK: usize = 1 << 16;
#[cfg(fuzzing)]
const MIN_BLOCK: usize = 256;

/// Up to `count` block boundaries at line ends (never inside a line continued
/// with `\`): `[0, ..., data.len()]`. Blocks are at most 1 GiB, so that a
/// block's corners are counted in 32 bits.
fn block_starts(data: &[u8], count: usize) -> Vec<usize> {
    let mut starts = vec![0];
    let size = data.len().div_ceil(count.max(1)).clamp(MIN_BLOCK, 1 << 30);
    let mut at = size;
    while at < data.len() {
        let Some(newline) = memchr::memchr(b'\n', &data[at..]) else {
            break;
        };
        let end = at + newline + 1;
        let line = trim_end(&data[..end - 1]);
        if line.ends_with(b"\\") {
            at = end; // a continued line: cut after its continuation
            continue;
        }
        if end < data.len() {
            starts.push(end);
        }
        at = end + size;
    }
    starts.push(data.len());
    starts
}

/// Element counts of a block before a statement: positions, UVs, normals.
type Counts = [u32; 3];

/// What one block declares, in order.
struct Block<'a> {
    text: &'a [u8],
    positions: Vec<[f32; 3]>,
    /// Empty when the block gives no colors (`v x y z r g b`), else one per
    /// position (black where a position has none).
    colors: Vec<[f32; 3]>,
    uvs: Vec<[f32; 2]>,
    normals: Vec<[f32; 3]>,
    /// Colors of ZBrush's `#MRGB` comments: the file's n-th is its n-th vertex's.
    mrgb: Vec<[f32; 3]>,
    /// Face corners' raw indices (position, UV, normal): 1-based, or negative
    /// (counting back); 0 where absent. (32 bits: a file with 2^31 elements
    /// of a kind would be over 30 GB.)
    corners: Vec<[i32; 3]>,
    /// Where each face's corners start in `corners`, then their end: `[0, ...]`.
    faces: Vec<u32>,
    /// The raw position indices of `l` lines, and where each line starts.
    points: Vec<i32>,
    lines: Vec<u32>,
    /// The faces (and lines) with a negative index, with the counts before them.
    relative_faces: Vec<(u32, Counts)>,
    relative_lines: Vec<(u32, Counts)>,
    /// Smooth groups, per face from the block's first `s` on (faces before
    /// it take the group the block starts with): Blender writes an `s` each
    /// time it changes, which can be every other face.
    smooth: Vec<u32>,
    smooth_from: usize,
    smooth_now: Option<u32>,
    /// The statements that change state (but `s`), in order.
    marks: Vec<Mark>,
    /// The faces before the first mark, between marks, after the last: one
    /// more than marks.
    spans: Vec<Span>,
    skipped: u64,
}

/// A statement that changes state, with the faces, lines and elements of the
/// block before it.
struct Mark {
    event: Event,
    faces: u32,
    lines: u32,
    counts: Counts,
}

enum Event {
    Object(String),
    Group(String),
    Material(String),
    MtlLib(String),
}

/// The layouts of a span's faces (UVs or not, normals or not): one bit each.
#[derive(Clone, Copy, Default)]
struct Span {
    layouts: u8,
}

impl Span {
    fn see(&mut self, (uvs, normals): Layout) {
        self.layouts |= 1 << (2 * u8::from(uvs) + u8::from(normals));
    }
}

/// A token as an error message shows it: its first 40 bytes, quoted.
#[cold]
fn shown(token: &[u8]) -> String {
    format!(
        "{:?}",
        String::from_utf8_lossy(&token[..token.len().min(40)])
    )
}

fn parse_error(line: u64, reason: impl Into<Cow<'static, str>>) -> Error {
    Error::Parse {
        path: None,
        line,
        reason: reason.into(),
    }
}

fn trim(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    trim_end(&line[start..])
}

fn trim_end(line: &[u8]) -> &[u8] {
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    &line[..end]
}

/// The statements of a text: each with its (first) line number, lines
/// continued with `\` joined with a space.
struct Statements<'a> {
    rest: &'a [u8],
    line: u64,
}

impl<'a> Statements<'a> {
    /// The next line, without its `\n` and trailing whitespace.
    fn take(&mut self) -> &'a [u8] {
        let (line, rest) = match memchr::memchr(b'\n', self.rest) {
            Some(p) => (&self.rest[..p], &self.rest[p + 1..]),
            None => (self.rest, &self.rest[self.rest.len()..]),
        };
        self.rest = rest;
        self.line += 1;
        trim_end(line)
    }
}

impl<'a> Iterator for Statements<'a> {
    type Item = (u64, Cow<'a, [u8]>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let first = self.line + 1;
        let mut line = self.take();
        if !line.ends_with(b"\\") {
            return Some((first, Cow::Borrowed(line)));
        }
        let mut joined = Vec::new();
        while let Some(head) = line.strip_suffix(b"\\") {
            joined.extend_from_slice(head);
            joined.push(b' ');
            if self.rest.is_empty() {
                return Some((first, Cow::Owned(joined)));
            }
            line = self.take();
        }
        joined.extend_from_slice(line);
        Some((first, Cow::Owned(joined)))
    }
}

fn statements(text: &[u8]) -> Statements<'_> {
    Statements {
        rest: text,
        line: 0,
    }
}

fn parse_block(text: &[u8], strict: bool) -> Result<Block<'_>> {
    // Room for what a typical file of this size holds (Blender's: a vertex
    // line is ~30 bytes, a face of 4 corners ~40), so that vectors rarely grow.
    let mut block = Block {
        text,
        positions: Vec::with_capacity(text.len() / 120),
        colors: Vec::new(),
        uvs: Vec::with_capacity(text.len() / 120),
        normals: Vec::with_capacity(text.len() / 120),
        mrgb: Vec::new(),
        smooth: Vec::new(),
        smooth_from: usize::MAX,
        smooth_now: None,
        corners: Vec::with_capacity(text.len() / 12),
        faces: Vec::with_capacity(text.len() / 48),
        points: Vec::new(),
        lines: vec![0],
        relative_faces: Vec::new(),
        relative_lines: Vec::new(),
        marks: Vec::new(),
        spans: vec![Span::default()],
        skipped: 0,
    };
    block.faces.push(0);
    let mut at = 0;
    let mut number = 0;
    while at < text.len() {
        if let Some(next) = common_line(&mut block, text, at) {
            at = next;
            number += 1;
            continue;
        }
        let mut statements = Statements {
            rest: &text[at..],
            line: number,
        };
        if let Some((first, line)) = statements.next() {
            parse_line(&mut block, &line, first, strict)?;
        }
        number = statements.line;
        at = text.len() - statements.rest.len();
    }
    Ok(block)
}

/// A position, and its color: colors are kept once a `v` gives one (black
/// for the positions before it and those without).
fn vertex(block: &mut Block, position: [f32; 3], color: Option<[f32; 3]>) {
    match color {
        Some(color) => {
            block.colors.resize(block.positions.len(), [0.0; 3]);
            block.colors.push(color);
        }
        None if !block.colors.is_empty() => block.colors.push([0.0; 3]),
        None => {}
    }
    block.positions.push(position);
}

/// Ends a face whose corners are pushed: its layout, its smooth group, its end.
fn end_face(block: &mut Block, layout: Layout) {
    let span = block.spans.last_mut().expect("one span more than marks");
    span.see(layout);
    if let Some(group) = block.smooth_now {
        block.smooth.push(group);
    }
    block.faces.push(block.corners.len() as u32);
}

/// Whitespace inside a line (`\n` ends it).
#[inline(always)]
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0c')
}

/// The statements most of a file is made of, in their plain form (`v`, `vt`
/// and `vn` with decimal numbers, faces with positive indices), parsed in one
/// pass over the bytes: the start of the next line, or `None` (and nothing
/// changed) for anything else, which [`parse_line`] then reads.
#[inline]
fn common_line(block: &mut Block, text: &[u8], at: usize) -> Option<usize> {
    match text.get(at..at + 3)? {
        [b'v', b' ', _] => {
            let (values, count, next) = decimals::<4>(text, at + 2)?;
            (count == 3 || count == 4).then_some(())?;
            vertex(block, [values[0], values[1], values[2]], None);
            Some(next)
        }
        [b'v', b't', b' '] => {
            let (values, count, next) = decimals::<3>(text, at + 3)?;
            (count > 0).then_some(())?;
            block.uvs.push([values[0], values[1]]);
            Some(next)
        }
        [b'v', b'n', b' '] => {
            let (values, count, next) = decimals::<3>(text, at + 3)?;
            (count == 3).then_some(())?;
            block.normals.push(values);
            Some(next)
        }
        [b'f', b' ', _] => common_face(block, text, at + 2),
        _ => None,
    }
}

/// Up to `N` decimal numbers from `at` to the line's end: the numbers, how
/// many, and the start of the next line.
#[inline(always)]
fn decimals<const N: usize>(text: &[u8], mut at: usize) -> Option<([f32; N], usize, usize)> {
    let mut values = [0.0f32; N];
    let mut count = 0;
    loop {
        while at < text.len() && is_blank(text[at]) {
            at += 1;
        }
        match text.get(at) {
            None => return Some((values, count, at)),
            Some(b'\n') => return Some((values, count, at + 1)),
            Some(_) if count == N => return None,
            Some(_) => {
                let (value, next) = decimal(text, at)?;
                values[count] = value;
                count += 1;
                at = next;
            }
        }
    }
}

/// Powers of ten that are exact in `f64`.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// A number `[-]digits[.digits]` at `at` with at most 15 digits, ended by
/// whitespace or the text's end; the number and where it ends, or `None` for
/// any other (which `str::parse` then reads).
///
/// The digits as one integer and the power of ten are exact in `f64`, so one
/// division gives the quotient correctly rounded to `f64` (Clinger's fast
/// path). Rounding that again to `f32` gives the correctly rounded `f32`, as
/// `str::parse` does, unless the `f64` is exactly halfway between two `f32`
/// (every such midpoint is an `f64`: a quotient on one side of it cannot
/// round past it): those few go to `str::parse`.
#[inline(always)]
fn decimal(text: &[u8], mut at: usize) -> Option<(f32, usize)> {
    let negative = text[at] == b'-';
    at += usize::from(negative);
    let mut mantissa = 0u64;
    let mut digits = 0;
    let mut scale = 0;
    let mut digit = |mantissa: &mut u64, b: u8| {
        *mantissa = *mantissa * 10 + u64::from(b - b'0');
        digits += 1;
        digits <= 15
    };
    while let Some(&b) = text.get(at).filter(|b| b.is_ascii_digit()) {
        if !digit(&mut mantissa, b) {
            return None;
        }
        at += 1;
    }
    if text.get(at) == Some(&b'.') {
        at += 1;
        let digits_at_once = text.get(at..at + 8).map(leading_digits);
        if let Some((count @ 1..8, value)) = digits_at_once {
            // The common case: the fraction's 1 to 7 digits at once.
            if digits + count > 15 {
                return None;
            }
            mantissa = mantissa * 10u64.pow(count as u32) + u64::from(value);
            digits += count;
            scale = count;
            at += count;
        } else {
            while let Some(&b) = text.get(at).filter(|b| b.is_ascii_digit()) {
                if !digit(&mut mantissa, b) {
                    return None;
                }
                scale += 1;
                at += 1;
            }
        }
    }
    if digits == 0 || text.get(at).is_some_and(|&b| b != b'\n' && !is_blank(b)) {
        return None;
    }
    let wide = mantissa as f64 / POW10[scale];
    // The 29 bits an f32 does not keep: exactly half of its last place.
    if wide.to_bits() & 0x1fff_ffff == 0x1000_0000 {
        return None;
    }
    let value = wide as f32;
    Some((if negative { -value } else { value }, at))
}

/// How many decimal digits start these 8 bytes and, when under 8, their
/// value, with a few operations on the 8 bytes as one integer (the method of
/// Lemire's fast_float).
#[inline(always)]
fn leading_digits(bytes: &[u8]) -> (usize, u32) {
    let chunk = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
    let values = chunk.wrapping_sub(0x3030_3030_3030_3030);
    // A byte's top bit is set where it is below '0' or above '9' (a borrow
    // or carry only reaches the bytes after the first such one).
    let outside = (values | chunk.wrapping_add(0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080;
    let count = (outside.trailing_zeros() / 8) as usize;
    match count {
        0 => return (0, 0),
        8 => return (8, 0),
        _ => {}
    }
    // The digits moved to the end of 8, after zeros: their value is that of
    // the 8 digits. Then pairs, then fours, then the eight.
    let v = (values & ((1u64 << (8 * count)) - 1)) << (8 * (8 - count));
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    const LOW: u64 = 0x0000_00ff_0000_00ff;
    let v = (v & LOW)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((v >> 16) & LOW).wrapping_mul(1 + (10_000 << 32)))
        >> 32;
    (count, v as u32)
}

/// A face whose corners are `v`, `v/t`, `v//n` or `v/t/n` with positive
/// indices under 10^9, all alike: the start of the next line, or `None` (and
/// nothing changed).
#[inline]
fn common_face(block: &mut Block, text: &[u8], mut at: usize) -> Option<usize> {
    let start = block.corners.len();
    let next = loop {
        while at < text.len() && is_blank(text[at]) {
            at += 1;
        }
        match text.get(at) {
            None => break at,
            Some(b'\n') => break at + 1,
            Some(_) => match common_corner(text, at) {
                Some((corner, next)) => {
                    block.corners.push(corner);
                    at = next;
                }
                None => {
                    block.corners.truncate(start);
                    return None;
                }
            },
        }
    };
    let corners = &block.corners[start..];
    let first = corners.first().map(corner_layout);
    if corners.len() < 3 || corners.iter().any(|c| Some(corner_layout(c)) != first) {
        block.corners.truncate(start);
        return None;
    }
    end_face(block, corner_layout(&corners[0]));
    Some(next)
}

#[inline(always)]
fn common_corner(text: &[u8], mut at: usize) -> Option<([i32; 3], usize)> {
    let mut corner = [0i32; 3];
    let mut slot = 0;
    loop {
        let (count, value) = index_digits(text, at)?;
        // An empty part (`v//n`, `v/`) but the position; no index 0.
        if (count == 0 && slot == 0) || (count > 0 && value == 0) {
            return None;
        }
        corner[slot] = value as i32;
        at += count;
        match text.get(at) {
            Some(b'/') if slot < 2 => {
                slot += 1;
                at += 1;
            }
            Some(&b) if b != b'\n' && !is_blank(b) => return None,
            _ => return Some((corner, at)),
        }
    }
}

/// The decimal digits at `at` (at most 9) and their value.
#[inline(always)]
fn index_digits(text: &[u8], at: usize) -> Option<(usize, u32)> {
    if let Some(window) = text.get(at..at + 8) {
        let (count, value) = leading_digits(window);
        if count < 8 {
            return Some((count, value));
        }
    }
    let mut value = 0u32;
    let mut count = 0;
    while let Some(&b) = text.get(at + count).filter(|b| b.is_ascii_digit()) {
        if count == 9 {
            return None;
        }
        value = value * 10 + u32::from(b - b'0');
        count += 1;
    }
    Some((count, value))
}

fn counts(block: &Block) -> Counts {
    [
        block.positions.len() as u32,
        block.uvs.len() as u32,
        block.normals.len() as u32,
    ]
}

/// A statement's text (a name), without a carriage return inside (it could
/// not be written back on one line): UTF-8, or else Latin-1 (older exporters
/// wrote names in the system's 8-bit encoding), whose every byte is a character.
fn text(bytes: &[u8], line: u64, what: &str) -> Result<String> {
    if bytes.contains(&b'\r') {
        return Err(parse_error(
            line,
            format!("{what} has a carriage return inside"),
        ));
    }
    Ok(match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    })
}

/// The next whitespace-separated token of `text` from `at`.
#[inline]
fn next_token<'a>(text: &'a [u8], at: &mut usize) -> Option<&'a [u8]> {
    let mut i = *at;
    while i < text.len() && text[i].is_ascii_whitespace() {
        i += 1;
    }
    if i == text.len() {
        *at = i;
        return None;
    }
    let start = i;
    while i < text.len() && !text[i].is_ascii_whitespace() {
        i += 1;
    }
    *at = i;
    Some(&text[start..i])
}

fn parse_line(block: &mut Block, line: &[u8], number: u64, strict: bool) -> Result<()> {
    let line = trim(line);
    if line.is_empty() {
        return Ok(());
    }
    if line[0] == b'#' {
        if let Some(colors) = line.strip_prefix(b"#MRGB") {
            mrgb(block, colors, number)?;
        }
        return Ok(());
    }
    let split = line
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let (keyword, rest) = (&line[..split], &line[split..]);
    match keyword {
        b"v" => {
            let (values, count) = floats::<7>(rest, number, "v")?;
            let color = match count {
                3 | 4 => None,
                6 | 7 => Some([values[3], values[4], values[5]]),
                _ => return Err(parse_error(number, format!("v has {count} numbers"))),
            };
            vertex(block, [values[0], values[1], values[2]], color);
        }
        b"vt" => {
            let (values, count) = floats::<3>(rest, number, "vt")?;
            if count == 0 {
                return Err(parse_error(number, "vt has no numbers"));
            }
            block.uvs.push([values[0], values[1]]);
        }
        b"vn" => {
            let (values, count) = floats::<3>(rest, number, "vn")?;
            if count != 3 {
                return Err(parse_error(number, format!("vn has {count} numbers")));
            }
            block.normals.push(values);
        }
        b"f" => face(block, rest, number)?,
        b"l" => polyline(block, rest, number)?,
        b"o" => mark(block, Event::Object(text(trim(rest), number, "o")?)),
        b"g" => mark(block, Event::Group(text(trim(rest), number, "g")?)),
        b"usemtl" => mark(block, Event::Material(text(trim(rest), number, "usemtl")?)),
        b"mtllib" => mark(block, Event::MtlLib(text(trim(rest), number, "mtllib")?)),
        b"s" => {
            let rest = trim(rest);
            let group = match rest {
                b"off" => 0,
                _ => std::str::from_utf8(rest)
                    .ok()
                    .and_then(|t| t.parse::<u32>().ok())
                    .ok_or_else(|| {
                        parse_error(
                            number,
                            format!("s wants a group number or off, not {}", shown(rest)),
                        )
                    })?,
            };
            if block.smooth_now.is_none() {
                block.smooth_from = block.faces.len() - 1;
            }
            block.smooth_now = Some(group);
        }
        // Read but not kept yet.
        b"p" | b"cstype" | b"deg" | b"curv" | b"curv2" | b"surf" | b"parm" | b"trim" | b"hole"
        | b"scrv" | b"sp" | b"end" | b"bmat" | b"step" | b"mg" | b"lod" | b"shadow_obj"
        | b"trace_obj" | b"ctech" | b"stech" | b"bevel" | b"c_interp" | b"d_interp" | b"vp" => {
            block.skipped += 1
        }
        _ if strict => {
            return Err(parse_error(
                number,
                format!("unknown statement {}", shown(keyword)),
            ));
        }
        _ => block.skipped += 1,
    }
    Ok(())
}

/// ZBrush's vertex colors (polypaint): `#MRGB` then 8 hexadecimal digits
/// per vertex, mask (not kept), red, green, blue.
fn mrgb(block: &mut Block, text: &[u8], line: u64) -> Result<()> {
    let digits: Vec<u8> = text
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let hex = |pair: &[u8]| {
        std::str::from_utf8(pair)
            .ok()
            .and_then(|t| u8::from_str_radix(t, 16).ok())
    };
    if !digits.len().is_multiple_of(8) {
        return Err(parse_error(
            line,
            "#MRGB colors are 8 hexadecimal digits each",
        ));
    }
    for color in digits.chunks_exact(8) {
        let channel = |i: usize| hex(&color[i..i + 2]).map(|v| f32::from(v) / 255.0);
        let (Some(r), Some(g), Some(b)) = (channel(2), channel(4), channel(6)) else {
            return Err(parse_error(
                line,
                format!("{} is not an #MRGB color", shown(color)),
            ));
        };
        block.mrgb.push([r, g, b]);
    }
    Ok(())
}

fn mark(block: &mut Block, event: Event) {
    block.marks.push(Mark {
        event,
        faces: (block.faces.len() - 1) as u32,
        lines: (block.lines.len() - 1) as u32,
        counts: counts(block),
    });
    block.spans.push(Span::default());
}

fn face(block: &mut Block, rest: &[u8], line: u64) -> Result<()> {
    let start = block.corners.len();
    let mut at = 0;
    let mut negative = false;
    while let Some(token) = next_token(rest, &mut at) {
        let corner = corner(token, line)?;
        negative |= corner.iter().any(|&i| i < 0);
        block.corners.push(corner);
    }
    let corners = &block.corners[start..];
    if corners.len() < 3 {
        return Err(parse_error(
            line,
            format!("a face needs 3 corners, not {}", corners.len()),
        ));
    }
    let layout = corner_layout(&corners[0]);
    if corners.iter().any(|c| corner_layout(c) != layout) {
        return Err(parse_error(
            line,
            "a face's corners must all have UVs (or none), and normals (or none)",
        ));
    }
    if negative {
        let counts = counts(block);
        block
            .relative_faces
            .push(((block.faces.len() - 1) as u32, counts));
    }
    end_face(block, layout);
    Ok(())
}

fn polyline(block: &mut Block, rest: &[u8], line: u64) -> Result<()> {
    let start = block.points.len();
    let mut at = 0;
    let mut negative = false;
    while let Some(token) = next_token(rest, &mut at) {
        let point = corner(token, line)?[0];
        negative |= point < 0;
        block.points.push(point);
    }
    let size = block.points.len() - start;
    if size < 2 {
        return Err(parse_error(
            line,
            format!("a line needs 2 points, not {size}"),
        ));
    }
    if negative {
        let counts = counts(block);
        block
            .relative_lines
            .push(((block.lines.len() - 1) as u32, counts));
    }
    block.lines.push(block.points.len() as u32);
    Ok(())
}

/// Up to `N` numbers of a statement, and how many there were.
#[inline]
fn floats<const N: usize>(rest: &[u8], line: u64, what: &str) -> Result<([f32; N], usize)> {
    let mut values = [0.0f32; N];
    let mut count = 0;
    let mut at = 0;
    while let Some(token) = next_token(rest, &mut at) {
        if count == N {
            return Err(parse_error(
                line,
                format!("{what} has more than {N} numbers"),
            ));
        }
        values[count] = float(token, line)?;
        count += 1;
    }
    Ok((values, count))
}

#[inline]
fn float(token: &[u8], line: u64) -> Result<f32> {
    std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse::<f32>().ok())
        .ok_or_else(|| parse_error(line, format!("{} is not a number", shown(token))))
}

/// `v`, `v/t`, `v//n` or `v/t/n`.
#[inline]
fn corner(token: &[u8], line: u64) -> Result<[i32; 3]> {
    let mut out = [0i32; 3];
    let mut parts = token.split(|&b| b == b'/');
    for (i, slot) in out.iter_mut().enumerate() {
        match parts.next() {
            Some(b"") if i > 0 => {}
            Some(part) => *slot = index(part, line)?,
            None => break,
        }
    }
    if parts.next().is_some() {
        return Err(parse_error(
            line,
            format!("{} has more than three indices", shown(token)),
        ));
    }
    Ok(out)
}

#[inline]
fn index(part: &[u8], line: u64) -> Result<i32> {
    let (negative, digits) = match part.first() {
        Some(b'-') => (true, &part[1..]),
        Some(b'+') => (false, &part[1..]),
        _ => (false, part),
    };
    let mut value = 0i64;
    if digits.is_empty() || digits.len() > 18 {
        return Err(not_an_index(part, line));
    }
    for &d in digits {
        if !d.is_ascii_digit() {
            return Err(not_an_index(part, line));
        }
        value = value * 10 + i64::from(d - b'0');
    }
    if value == 0 {
        return Err(parse_error(line, "index 0 (indices start at 1)"));
    }
    i32::try_from(if negative { -value } else { value }).map_err(|_| {
        parse_error(
            line,
            format!("index {value} is beyond what oxport reads (2^31 - 1)"),
        )
    })
}

#[cold]
fn not_an_index(part: &[u8], line: u64) -> Error {
    parse_error(line, format!("{} is not an index", shown(part)))
}

/// The state a face takes from the statements before it.
#[derive(Clone, Default)]
struct State {
    smooth: Option<u32>,
    material: Option<String>,
    group: Option<String>,
}

/// A run of one object's faces and lines in one block, with their state.
struct Segment {
    block: usize,
    faces: Range<usize>,
    /// Only the faces of this layout (UVs, normals), where the run mixes them.
    only: Option<Layout>,
    lines: Range<usize>,
    /// The smooth group of its faces before the block's first `s`.
    smooth: Option<u32>,
    material: Option<u32>,
    group: Option<u32>,
    /// How many faces it gives (of `only`'s layout), where its corners and
    /// edges start in the mesh's arrays, and how many.
    face_count: usize,
    first_corner: usize,
    corners: usize,
    first_edge: usize,
    edges: usize,
}

/// Whether a face's corners have UVs, and normals.
type Layout = (bool, bool);

fn corner_layout(corner: &[i32; 3]) -> Layout {
    (corner[1] != 0, corner[2] != 0)
}

fn layout_of(block: &Block, face: usize) -> Layout {
    corner_layout(&block.corners[block.faces[face] as usize])
}

/// A mesh as the statements give it: an object, or the part of an object
/// whose faces have another layout than its first faces (a mesh has one).
#[derive(Default)]
struct Plan {
    name: String,
    /// The global indices of the first and one past the last position, UV
    /// and normal it owns.
    first: [usize; 3],
    end: [usize; 3],
    segments: Vec<Segment>,
    faces: usize,
    corners: usize,
    edges: usize,
    layout: Option<Layout>,
    smooth: bool,
    materials: Names,
    material: bool,
    groups: Names,
    group: bool,
}

/// The object being planned: its name, where its elements start, and its
/// meshes (one per layout of its faces, in order of appearance).
#[derive(Default)]
struct Object {
    name: String,
    first: [usize; 3],
    parts: Vec<Plan>,
}

impl Object {
    /// The part for faces of `layout` (`None`: lines, which go to the first).
    fn part(&mut self, layout: Option<Layout>) -> &mut Plan {
        let found = self.parts.iter().position(|p| match (p.layout, layout) {
            (_, None) | (None, _) => true,
            (Some(a), Some(b)) => a == b,
        });
        let i = found.unwrap_or_else(|| {
            self.parts.push(Plan::default());
            self.parts.len() - 1
        });
        let part = &mut self.parts[i];
        if part.layout.is_none() {
            part.layout = layout;
        }
        part
    }
}

/// Names in first-use order, and their indices.
#[derive(Default)]
struct Names {
    names: Vec<String>,
    index: HashMap<String, u32>,
}

impl Names {
    fn index(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.names.push(name.to_owned());
        let i = (self.names.len() - 1) as u32;
        self.index.insert(name.to_owned(), i);
        i
    }
}

/// An object's index arrays, filled by its segments.
struct Arrays {
    face_offsets: Vec<u32>,
    position_indices: Vec<u32>,
    uv_indices: Option<Vec<u32>>,
    normal_indices: Option<Vec<u32>>,
    smooth: Option<Vec<u32>>,
    material_indices: Option<Vec<u32>>,
    group_indices: Option<Vec<u32>>,
    edges: Vec<[u32; 2]>,
}

/// Pass 2: the objects and their segments, from the marks alone.
fn plan(
    blocks: &[Block],
    elements: &Elements,
    mtllibs: &mut Vec<String>,
) -> Located<(Vec<Plan>, Vec<Arrays>)> {
    let offsets = &elements.offsets;
    let mut plans = Vec::new();
    let mut object = Object::default();
    let mut state = State::default();
    let mut smooth = None;
    for (b, block) in blocks.iter().enumerate() {
        let (mut face, mut line) = (0, 0);
        // The smooth group the block starts with (its `s` are per face).
        state.smooth = smooth;
        for (s, span) in block.spans.iter().enumerate() {
            let mark = block.marks.get(s);
            let face_end = mark.map_or(block.faces.len() - 1, |m| m.faces as usize);
            let line_end = mark.map_or(block.lines.len() - 1, |m| m.lines as usize);
            add_faces(&mut object, block, b, face..face_end, span, &state).map_err(|e| (b, e))?;
            add_lines(&mut object, block, b, line..line_end);
            (face, line) = (face_end, line_end);
            let Some(mark) = mark else { continue };
            match &mark.event {
                Event::Object(name) => {
                    let here = [0, 1, 2].map(|k| offsets[b][k] + mark.counts[k] as usize);
                    let done = std::mem::take(&mut object);
                    finish(done, here, &mut plans);
                    object.name = name.clone();
                    object.first = here;
                }
                Event::Group(name) => state.group = Some(name.clone()),
                Event::Material(name) => state.material = Some(name.clone()),
                Event::MtlLib(text) => mtllibs.push(text.clone()),
            }
        }
        smooth = block.smooth_now.or(smooth);
    }
    finish(object, elements.sizes(), &mut plans);
    let arrays = plans
        .iter()
        .map(|plan| {
            let face_offsets = vec![0; plan.faces + usize::from(plan.faces > 0)];
            let per_face = |kept: bool| kept.then(|| vec![0; plan.faces]);
            let per_corner = |kept: bool| kept.then(|| vec![0; plan.corners]);
            let (uvs, normals) = plan.layout.unwrap_or_default();
            Arrays {
                face_offsets,
                position_indices: vec![0; plan.corners],
                uv_indices: per_corner(uvs),
                normal_indices: per_corner(normals),
                smooth: per_face(plan.smooth),
                material_indices: per_face(plan.material),
                group_indices: per_face(plan.group),
                edges: vec![[0; 2]; plan.edges],
            }
        })
        .collect();
    Ok((plans, arrays))
}

/// The global index of each block's first position, UV and normal, then the totals.
fn element_offsets(blocks: &[Block]) -> Vec<[usize; 3]> {
    let mut offsets = Vec::with_capacity(blocks.len() + 1);
    let mut at = [0usize; 3];
    offsets.push(at);
    for block in blocks {
        let counts = counts(block);
        at = [0, 1, 2].map(|k| at[k] + counts[k] as usize);
        offsets.push(at);
    }
    offsets
}

/// A run of faces in one state: to the object's part of their layout, split
/// by layout where the run mixes them (read again face by face; rare).
fn add_faces(
    object: &mut Object,
    block: &Block,
    b: usize,
    faces: Range<usize>,
    span: &Span,
    state: &State,
) -> Result<()> {
    if faces.is_empty() {
        return Ok(());
    }
    let mixed = span.layouts.count_ones() > 1;
    // A face has a smooth group if it comes after the block's first `s`, or
    // before it with a group the block starts with.
    let smooth = |f: usize| f >= block.smooth_from || state.smooth.is_some();
    // Per layout: faces, corners, whether some face has a smooth group.
    let mut runs: Vec<(Layout, usize, usize, bool)> = Vec::new();
    if mixed {
        for f in faces.clone() {
            let layout = layout_of(block, f);
            let corners = (block.faces[f + 1] - block.faces[f]) as usize;
            match runs.iter_mut().find(|r| r.0 == layout) {
                Some(run) => {
                    (run.1, run.2, run.3) = (run.1 + 1, run.2 + corners, run.3 || smooth(f))
                }
                None => runs.push((layout, 1, corners, smooth(f))),
            }
        }
    } else {
        let corners = (block.faces[faces.end] - block.faces[faces.start]) as usize;
        let any_smooth = smooth(faces.start) || smooth(faces.end - 1);
        runs.push((
            layout_of(block, faces.start),
            faces.len(),
            corners,
            any_smooth,
        ));
    }
    for (layout, count, corners, any_smooth) in runs {
        let part = object.part(Some(layout));
        let material = state.material.as_deref().map(|m| part.materials.index(m));
        let group = state.group.as_deref().map(|g| part.groups.index(g));
        part.smooth |= any_smooth;
        part.material |= material.is_some();
        part.group |= group.is_some();
        part.segments.push(Segment {
            block: b,
            faces: faces.clone(),
            only: mixed.then_some(layout),
            lines: 0..0,
            smooth: state.smooth,
            material,
            group,
            face_count: count,
            first_corner: part.corners,
            corners,
            first_edge: part.edges,
            edges: 0,
        });
        part.faces += count;
        part.corners += corners;
        if part.corners > u32::MAX as usize {
            return Err(Error::Unsupported(
                format!("object {:?} has more than 2^32 face corners", object.name).into(),
            ));
        }
    }
    Ok(())
}

/// A run of `l` lines: to the object's first part.
fn add_lines(object: &mut Object, block: &Block, b: usize, lines: Range<usize>) {
    if lines.is_empty() {
        return;
    }
    let points = (block.lines[lines.end] - block.lines[lines.start]) as usize;
    let edges = points - lines.len();
    let part = object.part(None);
    part.segments.push(Segment {
        block: b,
        faces: 0..0,
        only: None,
        lines,
        smooth: None,
        material: None,
        group: None,
        face_count: 0,
        first_corner: part.corners,
        corners: 0,
        first_edge: part.edges,
        edges,
    });
    part.edges += edges;
}

/// Keeps an object's meshes: the first owns the object's elements (and is
/// kept if it has any), the others use them as copies.
fn finish(object: Object, end: [usize; 3], plans: &mut Vec<Plan>) {
    let mut parts = object.parts;
    if parts.is_empty() {
        parts.push(Plan::default());
    }
    for (i, mut part) in parts.into_iter().enumerate() {
        part.name = object.name.clone();
        part.first = if i == 0 { object.first } else { end };
        part.end = end;
        if !part.segments.is_empty() || part.first != end {
            plans.push(part);
        }
    }
}

/// Where each block's elements start, to find an element by its global index.
struct Elements {
    offsets: Vec<[usize; 3]>,
}

impl Elements {
    fn new(blocks: &[Block]) -> Self {
        Self {
            offsets: element_offsets(blocks),
        }
    }

    fn sizes(&self) -> [usize; 3] {
        *self.offsets.last().expect("offsets end with the totals")
    }

    /// The block holding element `g` of kind `k`, and its index there.
    fn find(&self, k: usize, g: usize) -> (usize, usize) {
        let b = self.offsets.partition_point(|o| o[k] <= g) - 1;
        (b, g - self.offsets[b][k])
    }

    /// Elements `range` of kind `k` (`get` gives a block's array; positions
    /// past its end are zero) followed by the `copies`.
    fn gather<'b, 'a: 'b, T: Copy + Default + 'b>(
        &self,
        blocks: &'b [Block<'a>],
        k: usize,
        get: impl Fn(&'b Block<'a>) -> &'b [T],
        range: Range<usize>,
        copies: &[usize],
    ) -> Vec<T> {
        let mut out = Vec::with_capacity(range.len() + copies.len());
        for (b, block) in blocks.iter().enumerate() {
            let (start, end) = (self.offsets[b][k], self.offsets[b + 1][k]);
            let (from, to) = (range.start.max(start), range.end.min(end));
            if from < to {
                let values = get(block);
                let (from, to) = (from - start, to - start);
                let given = &values[from.min(values.len())..to.min(values.len())];
                out.extend_from_slice(given);
                out.resize(out.len() + (to - from - given.len()), T::default());
            }
        }
        out.extend(copies.iter().map(|&g| {
            let (b, i) = self.find(k, g);
            get(&blocks[b]).get(i).copied().unwrap_or_default()
        }));
        out
    }
}

/// References from an object to elements outside its own: where in its index
/// arrays (corner, or edge point as `2 * edge + end`) and which global element.
#[derive(Default)]
struct Foreign {
    positions: Vec<(usize, usize)>,
    uvs: Vec<(usize, usize)>,
    normals: Vec<(usize, usize)>,
    edge_points: Vec<(usize, usize)>,
}

/// A segment's share of its object's arrays.
struct Task<'a> {
    segment: &'a Segment,
    first: [usize; 3],
    end: [usize; 3],
    face_offsets: &'a mut [u32],
    positions: &'a mut [u32],
    uvs: Option<&'a mut [u32]>,
    normals: Option<&'a mut [u32]>,
    smooth: Option<&'a mut [u32]>,
    materials: Option<&'a mut [u32]>,
    groups: Option<&'a mut [u32]>,
    edges: &'a mut [[u32; 2]],
}

/// The first `n` items of `rest`, which keeps the others.
fn take<'a, T>(rest: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (head, tail) = std::mem::take(rest).split_at_mut(n);
    *rest = tail;
    head
}

fn take_some<'a, T>(rest: &mut Option<&'a mut [T]>, n: usize) -> Option<&'a mut [T]> {
    rest.as_mut().map(|rest| take(rest, n))
}

/// Pass 3a: every segment's indices into its object's arrays, on all cores.
fn resolve(
    pipeline: &Pipeline,
    blocks: &[Block],
    elements: &Elements,
    plans: &[Plan],
    arrays: &mut [Arrays],
) -> Located<Vec<Foreign>> {
    let mut tasks = Vec::new();
    for (plan, arrays) in plans.iter().zip(arrays.iter_mut()) {
        let mut face_offsets = arrays.face_offsets.get_mut(1..).unwrap_or_default();
        let mut positions = &mut arrays.position_indices[..];
        let mut uvs = arrays.uv_indices.as_deref_mut();
        let mut normals = arrays.normal_indices.as_deref_mut();
        let mut smooth = arrays.smooth.as_deref_mut();
        let mut materials = arrays.material_indices.as_deref_mut();
        let mut groups = arrays.group_indices.as_deref_mut();
        let mut edges = &mut arrays.edges[..];
        for segment in &plan.segments {
            let (faces, corners) = (segment.face_count, segment.corners);
            tasks.push(Task {
                segment,
                first: plan.first,
                end: plan.end,
                face_offsets: take(&mut face_offsets, faces),
                positions: take(&mut positions, corners),
                uvs: take_some(&mut uvs, corners),
                normals: take_some(&mut normals, corners),
                smooth: take_some(&mut smooth, faces),
                materials: take_some(&mut materials, faces),
                groups: take_some(&mut groups, faces),
                edges: take(&mut edges, segment.edges),
            });
        }
    }
    let sizes = elements.sizes();
    let filled = pipeline.map(tasks, |task| {
        let b = task.segment.block;
        fill(task, &blocks[b], elements.offsets[b], sizes).map_err(|error| (b, error))
    });
    let mut found = Vec::with_capacity(filled.len());
    let mut failed: Vec<(usize, OutOfRange)> = Vec::new();
    for result in filled {
        match result {
            Ok(foreign) => found.push(foreign),
            Err(error) => failed.push(error),
        }
    }
    // The file's first error: in the first block with one, the first line
    // (a segment has faces or lines, and an object's parts come one after
    // another: the tasks are not in file order).
    let Some(b) = failed.iter().map(|f| f.0).min() else {
        return Ok(found);
    };
    let candidates: Vec<OutOfRange> = failed
        .into_iter()
        .filter(|f| f.0 == b)
        .map(|f| f.1)
        .collect();
    Err((
        b,
        describe(&candidates, &blocks[b], elements.offsets[b], sizes),
    ))
}

/// An index out of range in the `nth` `keyword` statement of a block: the
/// raw index and its kind. (Lines are found only for the error reported.)
struct OutOfRange {
    keyword: &'static [u8],
    nth: usize,
    raw: i32,
    k: usize,
}

/// The error of the first of `candidates` in the block, with its line and
/// what was declared before it (found again by reading the block's
/// statements up to it).
#[cold]
fn describe(
    candidates: &[OutOfRange],
    block: &Block,
    offset: [usize; 3],
    sizes: [usize; 3],
) -> Error {
    let mut declared = [0usize; 3];
    let (mut faces, mut lines) = (0, 0);
    for (number, line) in statements(block.text) {
        let line = trim(&line);
        let word = line
            .split(|b| b.is_ascii_whitespace())
            .next()
            .unwrap_or_default();
        let nth = match word {
            b"v" | b"vt" | b"vn" => {
                let kind = match word {
                    b"v" => 0,
                    b"vt" => 1,
                    _ => 2,
                };
                declared[kind] += 1;
                continue;
            }
            b"f" => &mut faces,
            b"l" => &mut lines,
            _ => continue,
        };
        if let Some(error) = candidates
            .iter()
            .find(|c| c.keyword == word && c.nth == *nth)
        {
            let k = error.k;
            return parse_error(
                number,
                format!(
                    "{} index {} is out of range ({} declared before this line, {} in the file)",
                    ["position", "UV", "normal"][k],
                    error.raw,
                    offset[k] + declared[k],
                    sizes[k]
                ),
            );
        }
        *nth += 1;
    }
    unreachable_error()
}

/// An error that names no line: for a statement [`describe`] did not find
/// again (which would be a bug: it reads what the parse read).
#[cold]
fn unreachable_error() -> Error {
    Error::invalid("an index out of range whose statement was not found again")
}

/// Turns a block's raw indices into an object's local ones.
struct Resolver {
    /// The global index of the block's first elements, and the totals.
    offset: [usize; 3],
    sizes: [usize; 3],
    /// The object's own elements.
    first: [usize; 3],
    end: [usize; 3],
}

impl Resolver {
    /// The local index of a raw index of kind `k` (a placeholder for an
    /// element outside the object, listed in `foreign` with its `slot`), or
    /// the error of the `nth` `keyword` statement of the block.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn local(
        &self,
        raw: i32,
        k: usize,
        counts: Option<&Counts>,
        slot: usize,
        foreign: &mut Vec<(usize, usize)>,
        keyword: &'static [u8],
        nth: usize,
    ) -> std::result::Result<u32, OutOfRange> {
        let global = if raw > 0 {
            let g = raw as usize - 1;
            (g < self.sizes[k]).then_some(g)
        } else {
            counts.and_then(|counts| {
                let declared = self.offset[k] + counts[k] as usize;
                declared.checked_sub(raw.unsigned_abs() as usize)
            })
        };
        let Some(g) = global else {
            return Err(OutOfRange {
                keyword,
                nth,
                raw,
                k,
            });
        };
        if (self.first[k]..self.end[k]).contains(&g) {
            Ok((g - self.first[k]) as u32)
        } else {
            foreign.push((slot, g));
            Ok(0)
        }
    }
}

/// The entries of a block's `relative` list from item `start` on.
fn relative_from(
    relative: &[(u32, Counts)],
    start: usize,
) -> std::iter::Peekable<std::slice::Iter<'_, (u32, Counts)>> {
    relative[relative.partition_point(|r| (r.0 as usize) < start)..]
        .iter()
        .peekable()
}

fn fill(
    task: Task,
    block: &Block,
    offset: [usize; 3],
    sizes: [usize; 3],
) -> std::result::Result<Foreign, OutOfRange> {
    let Task {
        segment,
        first,
        end,
        face_offsets,
        positions,
        mut uvs,
        mut normals,
        mut smooth,
        materials,
        groups,
        edges,
    } = task;
    let resolver = Resolver {
        offset,
        sizes,
        first,
        end,
    };
    let mut foreign = Foreign::default();
    let mut relative = relative_from(&block.relative_faces, segment.faces.start);
    let mut slot = 0;
    let faces = segment.faces.clone();
    let kept = faces.filter(|&f| segment.only.is_none_or(|only| layout_of(block, f) == only));
    for (i, f) in kept.enumerate() {
        while relative.next_if(|r| (r.0 as usize) < f).is_some() {}
        let counts = relative.next_if(|r| r.0 as usize == f).map(|r| &r.1);
        let corners = &block.corners[block.faces[f] as usize..block.faces[f + 1] as usize];
        for c in corners {
            let at = segment.first_corner + slot;
            positions[slot] =
                resolver.local(c[0], 0, counts, at, &mut foreign.positions, b"f", f)?;
            if let Some(uvs) = uvs.as_deref_mut() {
                uvs[slot] = resolver.local(c[1], 1, counts, at, &mut foreign.uvs, b"f", f)?;
            }
            if let Some(normals) = normals.as_deref_mut() {
                normals[slot] =
                    resolver.local(c[2], 2, counts, at, &mut foreign.normals, b"f", f)?;
            }
            slot += 1;
        }
        face_offsets[i] = (segment.first_corner + slot) as u32;
        if let Some(smooth) = smooth.as_deref_mut() {
            smooth[i] = match f.checked_sub(block.smooth_from) {
                Some(at) => block.smooth[at],
                None => segment.smooth.unwrap_or(0),
            };
        }
    }
    for (values, value) in [(materials, segment.material), (groups, segment.group)] {
        if let Some(values) = values {
            values.fill(value.unwrap_or(0));
        }
    }
    let mut relative = relative_from(&block.relative_lines, segment.lines.start);
    let mut edge = 0;
    for l in segment.lines.clone() {
        let counts = relative.next_if(|r| r.0 as usize == l).map(|r| &r.1);
        let points = &block.points[block.lines[l] as usize..block.lines[l + 1] as usize];
        let mut previous = None;
        for &point in points {
            // A point is the second end of an edge, and the first of the next.
            let at = 2 * (segment.first_edge + edge) + usize::from(previous.is_some());
            let v = resolver.local(point, 0, counts, at, &mut foreign.edge_points, b"l", l)?;
            if let Some(p) = previous {
                edges[edge] = [p, v];
                edge += 1;
            }
            previous = Some(v);
        }
    }
    Ok(foreign)
}

/// Local indices for the elements an object uses from outside its own
/// (`own` of them): copies appended in first-use order.
struct Copies {
    own: usize,
    index: HashMap<usize, u32>,
    copied: Vec<usize>,
}

impl Copies {
    fn new(own: usize) -> Self {
        Self {
            own,
            index: HashMap::new(),
            copied: Vec::new(),
        }
    }

    fn local(&mut self, g: usize) -> u32 {
        *self.index.entry(g).or_insert_with(|| {
            self.copied.push(g);
            (self.own + self.copied.len() - 1) as u32
        })
    }
}

/// Pass 3b: an object's elements (its own range, then the copies of those it
/// uses from elsewhere) and its mesh.
fn build(
    plan: Plan,
    mut arrays: Arrays,
    found: &[Foreign],
    blocks: &[Block],
    elements: &Elements,
    colors: &Colors,
) -> Mesh<'static> {
    let range = |k: usize| plan.first[k]..plan.end[k];
    // Positions: copies in first-use order over faces, then lines.
    let mut copies = Copies::new(range(0).len());
    for &(slot, g) in found.iter().flat_map(|f| &f.positions) {
        arrays.position_indices[slot] = copies.local(g);
    }
    for &(slot, g) in found.iter().flat_map(|f| &f.edge_points) {
        arrays.edges[slot / 2][slot % 2] = copies.local(g);
    }
    let positions = elements.gather(blocks, 0, |b| &b.positions, range(0), &copies.copied);
    let colors = match colors {
        Colors::None => None,
        Colors::Vertex => Some(elements.gather(blocks, 0, |b| &b.colors, range(0), &copies.copied)),
        Colors::Mrgb(all) => {
            let own = range(0).chain(copies.copied.iter().copied());
            Some(
                own.map(|g| all.get(g).copied().unwrap_or_default())
                    .collect(),
            )
        }
    };
    let attribute =
        |k: usize, indices: &mut Option<Vec<u32>>, get: fn(&Foreign) -> &Vec<(usize, usize)>| {
            let indices = indices.as_mut()?;
            let mut copies = Copies::new(range(k).len());
            for &(slot, g) in found.iter().flat_map(get) {
                indices[slot] = copies.local(g);
            }
            Some(copies.copied)
        };
    let uv_copies = attribute(1, &mut arrays.uv_indices, |f| &f.uvs);
    let normal_copies = attribute(2, &mut arrays.normal_indices, |f| &f.normals);
    let uvs = uv_copies.map(|c| elements.gather(blocks, 1, |b| &b.uvs, range(1), &c));
    let normals = normal_copies.map(|c| elements.gather(blocks, 2, |b| &b.normals, range(2), &c));
    Mesh {
        name: plan.name.into(),
        positions: positions.into(),
        colors: colors.map(Into::into),
        uvs: uvs.map(Into::into),
        normals: normals.map(Into::into),
        face_offsets: arrays.face_offsets.into(),
        position_indices: arrays.position_indices.into(),
        uv_indices: arrays.uv_indices.map(Into::into),
        normal_indices: arrays.normal_indices.map(Into::into),
        smooth: arrays.smooth.map(Into::into),
        materials: plan.materials.names.into_iter().map(Into::into).collect(),
        material_indices: arrays.material_indices.map(Into::into),
        groups: plan.groups.names.into_iter().map(Into::into).collect(),
        group_indices: arrays.group_indices.map(Into::into),
        edges: (!arrays.edges.is_empty()).then(|| arrays.edges.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Scene> {
        read_bytes(text.as_bytes(), &ReadOptions::default())
    }

    #[test]
    fn objects_own_their_elements() {
        let scene = parse(
            "# made by hand\nmtllib a.mtl\no first\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\n\
             s 0\nusemtl red\nf 1//1 2//1 3//1\no second\nv 0 0 1\nv 1 0 1\nv 1 1 1\n\
             f -3 -2 -1\nl 4 6\n",
        )
        .unwrap();
        assert_eq!(scene.header, ["made by hand"]);
        assert_eq!(scene.mtllibs, ["a.mtl"]);
        let [a, b] = &scene.meshes[..] else {
            panic!("{:?}", scene.meshes.len())
        };
        assert_eq!(a.name, "first");
        assert_eq!(a.normal_indices.as_deref(), Some(&[0, 0, 0][..]));
        assert_eq!(a.materials, ["red"]);
        assert_eq!(a.smooth.as_deref(), Some(&[0][..]));
        assert_eq!(b.name, "second");
        assert_eq!(b.positions.len(), 3);
        assert_eq!(&b.position_indices[..], &[0, 1, 2]);
        assert_eq!(b.edges.as_deref(), Some(&[[0, 2]][..]));
        // The smooth group and material carry over to the second object.
        assert_eq!(b.smooth.as_deref(), Some(&[0][..]));
        assert!(b.normals.is_none());
        a.validate().unwrap();
        b.validate().unwrap();
    }

    #[test]
    fn errors_name_the_line_and_the_reason() {
        let error = |text: &str| parse(text).unwrap_err().to_string();
        assert_eq!(
            error("v 0 0 0\nf 1 2 3\n"),
            "line 2: position index 2 is out of range (1 declared before this line, 1 in the file)"
        );
        assert_eq!(error("v 0 0 x\n"), "line 1: \"x\" is not a number");
        // The first error in the file, whatever the order statements are resolved in.
        assert_eq!(
            error("v 0 0 0\nvt 0 0\nl 1 2\nf 1/1 1/1 1/9\n"),
            "line 3: position index 2 is out of range (1 declared before this line, 1 in the file)"
        );
        assert_eq!(
            error("v 0 0 0\n\nf 1 1\n"),
            "line 3: a face needs 3 corners, not 2"
        );
        assert_eq!(error("f 0 1 2\n"), "line 1: index 0 (indices start at 1)");
        let strict = ReadOptions {
            strict: true,
            ..ReadOptions::default()
        };
        let unknown = read_bytes(b"v 1 2 3\nfoo bar\n", &strict).unwrap_err();
        assert_eq!(unknown.to_string(), "line 2: unknown statement \"foo\"");
        assert_eq!(parse("v 1 2 3\nfoo bar\n").unwrap().skipped, 1);
    }

    #[test]
    fn vertex_colors_are_kept() {
        let scene = parse("v 0 0 0 1 0.5 0\nv 1 0 0\nv 0 1 0 0 0 1\nf 1 2 3\n").unwrap();
        let colors = scene.meshes[0].colors.as_deref().unwrap();
        assert_eq!(colors, &[[1.0, 0.5, 0.0], [0.0; 3], [0.0, 0.0, 1.0]]);
        assert!(
            parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
                .unwrap()
                .meshes[0]
                .colors
                .is_none()
        );
    }

    #[test]
    fn zbrush_polypaint_is_read_as_vertex_colors() {
        // ZBrush writes `#MRGB` lines (mask, red, green, blue per vertex) after its vertices.
        let scene =
            parse("v 0 0 0\nv 1 0 0\n#MRGB ff0000ff 00ff0000\nv 0 1 0\n#MRGB 80ffffff\nf 1 2 3\n")
                .unwrap();
        let colors = scene.meshes[0].colors.as_deref().unwrap();
        assert_eq!(colors, &[[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [1.0; 3]]);
        assert_eq!(
            parse("v 0 0 0\n#MRGB ff00zz00\n").unwrap_err().to_string(),
            "line 2: \"ff00zz00\" is not an #MRGB color"
        );
    }

    #[test]
    fn faces_without_corners_are_errors() {
        for text in ["f\n", "f \n", "f 1\n"] {
            assert!(parse(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn continuations_crlf_tabs_and_no_final_newline() {
        let scene = parse("v 0 0 0\r\nv 1\t0 0 \r\nv 0 1 \\\n 0\nf 1 2 \\\n3").unwrap();
        let mesh = &scene.meshes[0];
        assert_eq!(mesh.positions[2], [0.0, 1.0, 0.0]);
        assert_eq!(&mesh.position_indices[..], &[0, 1, 2]);
    }

    #[test]
    fn blocks_parse_the_same_as_one() {
        let mut text = String::new();
        for o in 0..200 {
            text.push_str(&format!("o object_{o}\n"));
            for i in 0..400 {
                text.push_str(&format!("v {i} {o}.5 -{i}.25\nvt 0.{i} 0.5\n"));
            }
            for i in 0..399 {
                text.push_str(&format!(
                    "f {a}/{a} {b}/{b} -1/-1\n",
                    a = i + 1 + o * 400,
                    b = i + 2 + o * 400
                ));
            }
        }
        let one = read_bytes(
            text.as_bytes(),
            &ReadOptions {
                threads: Some(1),
                ..ReadOptions::default()
            },
        )
        .unwrap();
        let many = read_bytes(
            text.as_bytes(),
            &ReadOptions {
                threads: Some(8),
                ..ReadOptions::default()
            },
        )
        .unwrap();
        assert!(block_starts(text.as_bytes(), 32).len() > 3);
        assert_eq!(one, many);
        assert_eq!(one.meshes.len(), 200);
        assert_eq!(one.meshes[7].positions.len(), 400);
    }

    #[test]
    fn common_lines_parse_as_the_general_path() {
        // Lines of every form `common_line` takes or declines, each parsed by
        // it (when it takes it) and by `parse_line`: the same block.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let number = |next: &mut dyn FnMut(u64) -> u64| {
            let digits = 1 + next(17) as usize;
            let mut text: String = (0..digits)
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            if next(3) > 0 {
                text.insert(next(digits as u64 + 1) as usize, '.');
            }
            if next(3) == 0 {
                text.insert(0, '-');
            }
            text
        };
        let mut taken = 0;
        for _ in 0..20_000 {
            let line = match next(4) {
                0 => format!(
                    "v {} {} {}",
                    number(&mut next),
                    number(&mut next),
                    number(&mut next)
                ),
                1 => format!("vt {} {}", number(&mut next), number(&mut next)),
                2 => format!(
                    "vn {}\t{} {} ",
                    number(&mut next),
                    number(&mut next),
                    number(&mut next)
                ),
                _ => {
                    let corners = 3 + next(3);
                    let form = next(4);
                    let mut face = String::from("f");
                    for _ in 0..corners {
                        let i = next(20);
                        face += &match form {
                            0 => format!(" {i}"),
                            1 => format!(" {i}/{}", next(20)),
                            2 => format!(" {i}//{}", next(20)),
                            _ => format!(" {i}/{}/{}", next(20), next(20)),
                        };
                    }
                    face
                }
            };
            let text = format!("{line}\r\n");
            let mut common = parse_block("".as_bytes(), false).unwrap();
            let mut general = parse_block("".as_bytes(), false).unwrap();
            let general_result = parse_line(&mut general, line.as_bytes(), 1, false);
            let Some(end) = common_line(&mut common, text.as_bytes(), 0) else {
                continue;
            };
            taken += 1;
            assert_eq!(end, text.len(), "{line}");
            assert!(general_result.is_ok(), "{line}");
            let bits = |v: &[[f32; 3]]| v.iter().flatten().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&common.positions), bits(&general.positions), "{line}");
            assert_eq!(bits(&common.normals), bits(&general.normals), "{line}");
            assert_eq!(common.uvs, general.uvs, "{line}");
            assert_eq!(common.corners, general.corners, "{line}");
            assert_eq!(common.faces, general.faces, "{line}");
        }
        assert!(taken > 5_000, "{taken}");
    }

    #[test]
    fn faces_of_another_layout_make_another_mesh() {
        // 3ds Max's Max2Obj writes faces with UVs and faces without in one
        // object: a mesh has one layout, so the object is read as one mesh per
        // layout, the later ones with copies of the elements they use.
        let scene = parse(
            "o box\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nusemtl a\n\
             f 1 2 3\nf 1/1 3/1 4/1\nf -4 -2 -1\nl 1 2\n",
        )
        .unwrap();
        let [plain, with_uvs] = &scene.meshes[..] else {
            panic!("{:?}", scene.meshes.len())
        };
        assert_eq!(
            (plain.name.as_ref(), with_uvs.name.as_ref()),
            ("box", "box")
        );
        assert_eq!(plain.positions.len(), 4);
        assert_eq!(&plain.face_offsets[..], &[0, 3, 6]);
        assert_eq!(&plain.position_indices[..], &[0, 1, 2, 0, 2, 3]);
        assert!(plain.uvs.is_none());
        assert_eq!(plain.edges.as_deref(), Some(&[[0, 1]][..]));
        assert_eq!(
            &with_uvs.positions[..],
            &[[0.0; 3], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]
        );
        assert_eq!(&with_uvs.position_indices[..], &[0, 1, 2]);
        assert_eq!(with_uvs.uv_indices.as_deref(), Some(&[0, 0, 0][..]));
        assert_eq!(with_uvs.materials, ["a"]);
        plain.validate().unwrap();
        with_uvs.validate().unwrap();
    }

    #[test]
    fn smooth_groups_of_mixed_layouts_are_per_face() {
        let scene =
            parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/1 3/1\ns 1\nf 1 2 3\n").unwrap();
        let [with_uvs, plain] = &scene.meshes[..] else {
            panic!("{:?}", scene.meshes.len())
        };
        assert!(with_uvs.smooth.is_none());
        assert_eq!(plain.smooth.as_deref(), Some(&[1][..]));
    }

    #[test]
    fn byte_order_marks_and_latin1_names() {
        let scene = parse("\u{feff}v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
        assert_eq!(scene.meshes[0].positions.len(), 3);
        let utf16: Vec<u8> = "\u{feff}o \u{e6}\r\nv 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        let scene = read_bytes(&utf16, &ReadOptions::default()).unwrap();
        assert_eq!(scene.meshes[0].name, "\u{e6}");
        let latin1 = b"o Terraind\xe6k\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
        let scene = read_bytes(latin1, &ReadOptions::default()).unwrap();
        assert_eq!(scene.meshes[0].name, "Terraind\u{e6}k");
    }

    #[test]
    fn decimals_round_as_std_at_f32_midpoints() {
        // Integers from 2^24 on are f32 midpoints every other step; and
        // decimals whose f64 quotient lands near one.
        let mut cases: Vec<String> = (16_777_200u32..16_777_300)
            .chain(33_554_400..33_554_500)
            .chain((0..2000).map(|i| 100_000_000 + i * 37))
            .map(|i| i.to_string())
            .collect();
        cases.extend((0..4000).map(|i| format!("{}.{:03}", 16_777_000 + i, i % 1000)));
        cases.extend(
            ["0.1", "-0.000001", "123456789012345", "1.00000005960464477"].map(String::from),
        );
        for case in &cases {
            let text = format!("{case} ");
            let expected: f32 = case.parse().unwrap();
            if let Some((value, end)) = decimal(text.as_bytes(), 0) {
                assert_eq!(value.to_bits(), expected.to_bits(), "{case}");
                assert_eq!(end, case.len());
            }
        }
    }
}
