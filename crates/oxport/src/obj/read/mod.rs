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

mod block;
mod build;
mod fast;
mod parse;
mod plan;
mod resolve;
mod split;
#[cfg(test)]
mod tests;

use std::io::Read;
use std::path::Path;

use crate::mesh::Mesh;
use crate::pipeline::Pipeline;
use crate::{Error, Result};

use block::Elements;
use build::build;
use parse::parse_block;
use plan::plan;
use resolve::{Foreign, resolve};
use split::{block_starts, header, line_count, parse_error};

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
