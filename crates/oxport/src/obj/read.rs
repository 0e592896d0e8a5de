//! Reading OBJ files: the text is cut into newline-aligned blocks that are
//! parsed on all cores (numbers are most of the work), then stitched in file
//! order into one [`Mesh`] per object.
//!
//! Indices in a file are global and 1-based (negative ones count back from the
//! last element declared); a [`Mesh`] holds 0-based indices into its own
//! arrays. Each object owns the `v`, `vt` and `vn` lines declared after its `o`
//! (Blender's files and most others); an element it uses from elsewhere is
//! copied into it.

use std::collections::HashMap;
use std::path::Path;

use rayon::prelude::*;

use crate::mesh::Mesh;
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

/// Reads the OBJ file at `path` (the whole file in memory).
pub fn read(path: &Path, options: &ReadOptions) -> Result<Scene> {
    let data = std::fs::read(path).map_err(|e| Error::io_at(path, e))?;
    read_bytes(&data, options).map_err(|error| error.in_file(path))
}

/// Reads OBJ text.
pub fn read_bytes(data: &[u8], options: &ReadOptions) -> Result<Scene> {
    if options.threads == Some(0) {
        return Err(Error::invalid("threads must be at least 1"));
    }
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let starts = block_starts(data, threads * 4);
    let parse = |w: &[usize]| parse_block(&data[w[0]..w[1]], options.strict);
    let blocks: Vec<Result<Block>> = if starts.len() <= 2 || threads == 1 {
        // One block (small input) or one thread: no threads to start.
        starts.windows(2).map(parse).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| Error::invalid(format!("cannot start the parsing threads: {e}")))?;
        pool.install(|| starts.par_windows(2).map(parse).collect())
    };
    let mut parsed = Vec::with_capacity(blocks.len());
    for (i, block) in blocks.into_iter().enumerate() {
        // Lines are counted from the block's start: add the lines before it.
        parsed.push(block.map_err(|e| shift_line(e, line_count(&data[..starts[i]])))?);
    }
    let header = header(data);
    stitch(parsed, header)
}

fn line_count(data: &[u8]) -> u64 {
    data.iter().filter(|&&b| b == b'\n').count() as u64
}

fn shift_line(error: Error, lines_before: u64) -> Error {
    match error {
        Error::Parse { path, line, reason } => Error::Parse {
            path,
            line: line + lines_before,
            reason,
        },
        other => other,
    }
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

/// Up to `count` block boundaries at line ends (never inside a line continued
/// with `\`): `[0, ..., data.len()]`.
fn block_starts(data: &[u8], count: usize) -> Vec<usize> {
    let mut starts = vec![0];
    let size = data.len().div_ceil(count.max(1)).max(1 << 16);
    let mut at = size;
    while at < data.len() {
        let Some(newline) = data[at..].iter().position(|&b| b == b'\n') else {
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

/// What one block declares, in order.
#[derive(Default)]
struct Block {
    positions: Vec<[f32; 3]>,
    /// The colors given (`v x y z r g b`), with the block index of their position.
    colors: Vec<(u32, [f32; 3])>,
    uvs: Vec<[f32; 2]>,
    normals: Vec<[f32; 3]>,
    /// Raw 1-based (or negative) indices of face corners and line points:
    /// position, UV, normal; 0 where absent. (32 bits: a file with 2^31
    /// elements of a kind would be over 30 GB.)
    corners: Vec<[i32; 3]>,
    events: Vec<Event>,
    skipped: u64,
}

/// Element counts of a block before a statement: positions, UVs, normals.
type Counts = [u32; 3];

enum Event {
    /// `o NAME`, with the element counts before it.
    Object(String, Counts),
    Group(String),
    Smooth(u32),
    Material(String),
    MtlLib(String),
    /// A face: its corners end at `end` in the block's corners.
    Face {
        end: u32,
        line: u64,
        counts: Counts,
    },
    /// A polyline (`l`): its points end at `end`.
    Line {
        end: u32,
        line: u64,
        counts: Counts,
    },
}

/// A token as an error message shows it: its first 40 bytes, quoted.
#[cold]
fn shown(token: &[u8]) -> String {
    format!(
        "{:?}",
        String::from_utf8_lossy(&token[..token.len().min(40)])
    )
}

fn parse_error(line: u64, reason: impl Into<std::borrow::Cow<'static, str>>) -> Error {
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

/// The line at the start of `rest` (without its `\n`) and what follows it.
fn next_line(rest: &[u8]) -> (&[u8], &[u8]) {
    match rest.iter().position(|&b| b == b'\n') {
        Some(p) => (&rest[..p], &rest[p + 1..]),
        None => (rest, &rest[rest.len()..]),
    }
}

fn parse_block(data: &[u8], strict: bool) -> Result<Block> {
    let mut block = Block::default();
    // Room for what a typical file of this size holds (Blender's: a vertex
    // line is ~30 bytes, a face of 4 corners ~40), so that vectors rarely grow.
    block.positions.reserve(data.len() / 120);
    block.corners.reserve(data.len() / 12);
    block.events.reserve(data.len() / 60);
    let mut joined = Vec::new();
    let mut line_number = 0u64;
    let mut rest = data;
    while !rest.is_empty() {
        let (raw, next) = next_line(rest);
        rest = next;
        line_number += 1;
        let first_line = line_number;
        let mut line = trim_end(raw);
        if line.ends_with(b"\\") {
            // `\` continues the statement on the next line.
            joined.clear();
            while line.ends_with(b"\\") {
                joined.extend_from_slice(&line[..line.len() - 1]);
                joined.push(b' ');
                if rest.is_empty() {
                    break;
                }
                let (raw, next) = next_line(rest);
                rest = next;
                line_number += 1;
                line = trim_end(raw);
            }
            if !line.ends_with(b"\\") {
                joined.extend_from_slice(line);
            }
            parse_line(&mut block, &joined, first_line, strict)?;
        } else {
            parse_line(&mut block, line, first_line, strict)?;
        }
    }
    Ok(block)
}

fn counts(block: &Block) -> Counts {
    [
        block.positions.len() as u32,
        block.uvs.len() as u32,
        block.normals.len() as u32,
    ]
}

/// A statement's text (a name): UTF-8, without a carriage return inside
/// (it could not be written back on one line).
fn text(bytes: &[u8], line: u64, what: &str) -> Result<String> {
    if bytes.contains(&b'\r') {
        return Err(parse_error(
            line,
            format!("{what} has a carriage return inside"),
        ));
    }
    String::from_utf8(bytes.to_vec())
        .map_err(|_| parse_error(line, format!("{what} is not UTF-8 text")))
}

fn parse_line(block: &mut Block, line: &[u8], number: u64, strict: bool) -> Result<()> {
    let line = trim(line);
    if line.is_empty() || line[0] == b'#' {
        return Ok(());
    }
    let split = line
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let (keyword, rest) = (&line[..split], trim(&line[split..]));
    let numbers = rest
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty());
    match keyword {
        b"v" => {
            let (values, count) = floats::<7>(numbers, number, "v")?;
            block.positions.push([values[0], values[1], values[2]]);
            match count {
                3 | 4 => {}
                6 | 7 => {
                    let at = block.positions.len() as u32 - 1;
                    block.colors.push((at, [values[3], values[4], values[5]]));
                }
                _ => return Err(parse_error(number, format!("v has {count} numbers"))),
            }
        }
        b"vt" => {
            let (values, count) = floats::<3>(numbers, number, "vt")?;
            if count == 0 {
                return Err(parse_error(number, "vt has no numbers"));
            }
            block.uvs.push([values[0], values[1]]);
        }
        b"vn" => {
            let (values, count) = floats::<3>(numbers, number, "vn")?;
            if count != 3 {
                return Err(parse_error(number, format!("vn has {count} numbers")));
            }
            block.normals.push(values);
        }
        b"f" | b"l" => {
            let counts = counts(block);
            let start = block.corners.len();
            for token in numbers {
                block.corners.push(corner(token, number)?);
            }
            let size = block.corners.len() - start;
            let end = block.corners.len() as u32;
            let face = keyword == b"f";
            let (least, needs) = if face {
                (3, "a face needs 3 corners")
            } else {
                (2, "a line needs 2 points")
            };
            if size < least {
                return Err(parse_error(number, format!("{needs}, not {size}")));
            }
            let line = number;
            block.events.push(if face {
                Event::Face { end, line, counts }
            } else {
                Event::Line { end, line, counts }
            });
        }
        b"o" => {
            let counts = counts(block);
            block
                .events
                .push(Event::Object(text(rest, number, "o")?, counts));
        }
        b"g" => block.events.push(Event::Group(text(rest, number, "g")?)),
        b"usemtl" => block
            .events
            .push(Event::Material(text(rest, number, "usemtl")?)),
        b"mtllib" => block
            .events
            .push(Event::MtlLib(text(rest, number, "mtllib")?)),
        b"s" => {
            let group = match rest {
                b"off" => 0,
                _ => std::str::from_utf8(rest)
                    .ok()
                    .and_then(|t| t.parse::<u32>().ok())
                    .ok_or_else(|| {
                        parse_error(
                            number,
                            format!(
                                "s wants a group number or off, not {:?}",
                                String::from_utf8_lossy(rest)
                            ),
                        )
                    })?,
            };
            block.events.push(Event::Smooth(group));
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

/// Up to `N` numbers of a statement, and how many there were.
fn floats<'a, const N: usize>(
    tokens: impl Iterator<Item = &'a [u8]>,
    line: u64,
    what: &str,
) -> Result<([f32; N], usize)> {
    let mut values = [0.0f32; N];
    let mut count = 0;
    for token in tokens {
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

fn float(token: &[u8], line: u64) -> Result<f32> {
    std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse::<f32>().ok())
        .ok_or_else(|| parse_error(line, format!("{} is not a number", shown(token))))
}

/// `v`, `v/t`, `v//n` or `v/t/n`.
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

fn index(part: &[u8], line: u64) -> Result<i32> {
    let bad = || parse_error(line, format!("{} is not an index", shown(part)));
    let (negative, digits) = match part.first() {
        Some(b'-') => (true, &part[1..]),
        Some(b'+') => (false, &part[1..]),
        _ => (false, part),
    };
    if digits.is_empty() || digits.len() > 18 || !digits.iter().all(u8::is_ascii_digit) {
        return Err(bad());
    }
    let value = digits
        .iter()
        .fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
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

/// One object as it is stitched: global element indices until it is done.
#[derive(Default)]
struct Object {
    name: String,
    /// The global index of the first position, UV and normal declared in it.
    first: [usize; 3],
    face_offsets: Vec<u32>,
    corners: Vec<[u32; 3]>,
    with_uvs: Option<bool>,
    with_normals: Option<bool>,
    smooth: Vec<Option<u32>>,
    materials: Vec<String>,
    material_indices: Vec<Option<u32>>,
    groups: Vec<String>,
    group_indices: Vec<Option<u32>>,
    edges: Vec<[u32; 2]>,
    used: bool,
}

/// The file's state that persists across statements.
struct State {
    smooth: Option<u32>,
    material: Option<String>,
    group: Option<String>,
}

fn stitch(blocks: Vec<Block>, header: Vec<String>) -> Result<Scene> {
    // All elements in file order.
    let total = |f: fn(&Block) -> usize| blocks.iter().map(f).sum::<usize>();
    let mut positions = Vec::with_capacity(total(|b| b.positions.len()));
    // Colors only when the file has some: black for the positions without.
    let any_colors = blocks.iter().any(|b| !b.colors.is_empty());
    let mut colors: Vec<[f32; 3]> = Vec::new();
    let mut uvs = Vec::with_capacity(total(|b| b.uvs.len()));
    let mut normals = Vec::with_capacity(total(|b| b.normals.len()));
    let mut offsets = Vec::with_capacity(blocks.len());
    for block in &blocks {
        offsets.push([positions.len(), uvs.len(), normals.len()]);
        positions.extend_from_slice(&block.positions);
        if any_colors {
            let first = colors.len();
            colors.resize(first + block.positions.len(), [0.0; 3]);
            for &(at, color) in &block.colors {
                colors[first + at as usize] = color;
            }
        }
        uvs.extend_from_slice(&block.uvs);
        normals.extend_from_slice(&block.normals);
    }
    let sizes = [positions.len(), uvs.len(), normals.len()];
    let mut scene = Scene {
        header,
        skipped: blocks.iter().map(|b| b.skipped).sum(),
        ..Scene::default()
    };
    let mut state = State {
        smooth: None,
        material: None,
        group: None,
    };
    let mut object = Object::default();
    let finish = |object: Object, ends: [usize; 3], scene: &mut Scene| {
        if object.used || ends != object.first {
            scene.meshes.push(build(
                object,
                ends,
                &positions,
                any_colors.then_some(colors.as_slice()),
                &uvs,
                &normals,
            ));
        }
    };
    for (block, offset) in blocks.iter().zip(&offsets) {
        let mut corner = 0usize;
        for event in &block.events {
            match event {
                Event::Object(name, counts) => {
                    let here = global(offset, counts);
                    let done = std::mem::take(&mut object);
                    finish(done, here, &mut scene);
                    object.name = name.clone();
                    object.first = here;
                }
                Event::Group(name) => state.group = Some(name.clone()),
                Event::Smooth(group) => state.smooth = Some(*group),
                Event::Material(name) => state.material = Some(name.clone()),
                Event::MtlLib(text) => scene.mtllibs.push(text.clone()),
                Event::Face { end, line, counts } => {
                    let end = *end as usize;
                    let base = global(offset, counts);
                    add_face(
                        &mut object,
                        &block.corners[corner..end],
                        base,
                        sizes,
                        *line,
                        &state,
                    )?;
                    corner = end;
                }
                Event::Line { end, line, counts } => {
                    let end = *end as usize;
                    let points = &block.corners[corner..end];
                    let base = global(offset, counts)[0];
                    let mut previous = None;
                    for point in points {
                        let v = resolve(point[0], base, sizes[0], *line, "position")?;
                        if let Some(p) = previous {
                            object.edges.push([p, v]);
                        }
                        previous = Some(v);
                    }
                    object.used = true;
                    corner = end;
                }
            }
        }
    }
    finish(object, sizes, &mut scene);
    Ok(scene)
}

/// The global element counts of a block's `counts` (whose block starts at `offset`).
fn global(offset: &[usize; 3], counts: &Counts) -> [usize; 3] {
    [0, 1, 2].map(|k| offset[k] + counts[k] as usize)
}

/// A raw index to a global 0-based one: 1-based, or negative counting back
/// from the `declared` elements before the statement; within `total`.
fn resolve(raw: i32, declared: usize, total: usize, line: u64, what: &str) -> Result<u32> {
    let index = if raw > 0 {
        i64::from(raw) - 1
    } else {
        declared as i64 + i64::from(raw)
    };
    if index < 0 || index as usize >= total {
        return Err(parse_error(
            line,
            format!(
                "{what} index {raw} is out of range ({} declared before this line, {total} in the file)",
                declared
            ),
        ));
    }
    Ok(index as u32)
}

fn add_face(
    object: &mut Object,
    corners: &[[i32; 3]],
    base: [usize; 3],
    sizes: [usize; 3],
    line: u64,
    state: &State,
) -> Result<()> {
    let has_uvs = corners[0][1] != 0;
    let has_normals = corners[0][2] != 0;
    if corners
        .iter()
        .any(|c| (c[1] != 0) != has_uvs || (c[2] != 0) != has_normals)
    {
        return Err(parse_error(
            line,
            "a face's corners must all have UVs (or none), and normals (or none)",
        ));
    }
    for (seen, has, what) in [
        (&mut object.with_uvs, has_uvs, "UVs"),
        (&mut object.with_normals, has_normals, "normals"),
    ] {
        match *seen {
            None => *seen = Some(has),
            Some(before) if before != has => {
                return Err(Error::Unsupported(
                    format!(
                        "line {line}: object {:?} has faces with {what} and faces without",
                        object.name
                    )
                    .into(),
                ));
            }
            Some(_) => {}
        }
    }
    if object.face_offsets.is_empty() {
        object.face_offsets.push(0);
    }
    for c in corners {
        let v = resolve(c[0], base[0], sizes[0], line, "position")?;
        let t = if has_uvs {
            resolve(c[1], base[1], sizes[1], line, "UV")?
        } else {
            0
        };
        let n = if has_normals {
            resolve(c[2], base[2], sizes[2], line, "normal")?
        } else {
            0
        };
        object.corners.push([v, t, n]);
    }
    if object.corners.len() > u32::MAX as usize {
        return Err(Error::Unsupported(
            format!("line {line}: more than 2^32 face corners in one object").into(),
        ));
    }
    object.face_offsets.push(object.corners.len() as u32);
    object.smooth.push(state.smooth);
    let index_of = |names: &mut Vec<String>, name: &Option<String>| {
        name.as_ref().map(|name| {
            names.iter().position(|n| n == name).unwrap_or_else(|| {
                names.push(name.clone());
                names.len() - 1
            }) as u32
        })
    };
    let material = index_of(&mut object.materials, &state.material);
    object.material_indices.push(material);
    let group = index_of(&mut object.groups, &state.group);
    object.group_indices.push(group);
    object.used = true;
    Ok(())
}

/// Global indices into the object's own arrays, whose elements are its
/// declared `range` first, then copies of elements from elsewhere in first-use
/// order: returns those copies' global indices and the local indices.
fn localize(
    globals: impl Iterator<Item = u32>,
    range: std::ops::Range<usize>,
) -> (Vec<u32>, Vec<u32>) {
    let mut copies: HashMap<u32, u32> = HashMap::new();
    let mut copied = Vec::new();
    let indices = globals
        .map(|g| {
            if range.contains(&(g as usize)) {
                (g as usize - range.start) as u32
            } else {
                *copies.entry(g).or_insert_with(|| {
                    copied.push(g);
                    (range.len() + copied.len() - 1) as u32
                })
            }
        })
        .collect();
    (copied, indices)
}

/// An object's own elements: its declared `range`, then the `copied` ones.
fn gather<T: Copy>(values: &[T], range: std::ops::Range<usize>, copied: &[u32]) -> Vec<T> {
    let mut local = Vec::with_capacity(range.len() + copied.len());
    local.extend_from_slice(&values[range]);
    local.extend(copied.iter().map(|&g| values[g as usize]));
    local
}

/// An attribute's elements and per-corner indices, when the object's faces have it.
fn attribute<T: Copy>(
    object: &Object,
    with: Option<bool>,
    k: usize,
    end: usize,
    values: &[T],
) -> (Option<Vec<T>>, Option<Vec<u32>>) {
    if with != Some(true) {
        return (None, None);
    }
    let range = object.first[k]..end;
    let (copied, indices) = localize(object.corners.iter().map(|c| c[k]), range.clone());
    (Some(gather(values, range, &copied)), Some(indices))
}

fn build(
    object: Object,
    ends: [usize; 3],
    positions: &[[f32; 3]],
    colors: Option<&[[f32; 3]]>,
    uvs: &[[f32; 2]],
    normals: &[[f32; 3]],
) -> Mesh<'static> {
    let o = &object;
    let corner_v = o.corners.iter().map(|c| c[0]);
    let edge_v = o.edges.iter().flat_map(|e| [e[0], e[1]]);
    let range = o.first[0]..ends[0];
    let (copied, mut position_indices) = localize(corner_v.chain(edge_v), range.clone());
    let edge_indices = position_indices.split_off(o.corners.len());
    let mesh_positions = gather(positions, range.clone(), &copied);
    let mesh_colors = colors.map(|colors| gather(colors, range, &copied));
    let (mesh_uvs, uv_indices) = attribute(o, o.with_uvs, 1, ends[1], uvs);
    let (mesh_normals, normal_indices) = attribute(o, o.with_normals, 2, ends[2], normals);
    // A per-face state is kept when some face of the object has it; faces
    // before it get the first value seen (0 for smooth groups).
    let per_face = |values: &[Option<u32>]| -> Option<Vec<u32>> {
        values
            .iter()
            .any(Option::is_some)
            .then(|| values.iter().map(|v| v.unwrap_or(0)).collect())
    };
    let smooth = per_face(&o.smooth);
    let material_indices = per_face(&o.material_indices);
    let group_indices = per_face(&o.group_indices);
    let edges = (!o.edges.is_empty()).then(|| {
        edge_indices
            .chunks(2)
            .map(|e| [e[0], e[1]])
            .collect::<Vec<_>>()
    });
    Mesh {
        name: object.name.into(),
        positions: mesh_positions.into(),
        colors: mesh_colors.map(Into::into),
        uvs: mesh_uvs.map(Into::into),
        normals: mesh_normals.map(Into::into),
        face_offsets: object.face_offsets.into(),
        position_indices: position_indices.into(),
        uv_indices: uv_indices.map(Into::into),
        normal_indices: normal_indices.map(Into::into),
        smooth: smooth.map(Into::into),
        materials: object.materials.into_iter().map(Into::into).collect(),
        material_indices: material_indices.map(Into::into),
        groups: object.groups.into_iter().map(Into::into).collect(),
        group_indices: group_indices.map(Into::into),
        edges: edges.map(Into::into),
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
}
