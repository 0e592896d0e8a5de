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
//! (Blender's files and most others), used or not; an element it uses from
//! elsewhere is copied into it. Elements declared where no face or line is
//! (before the first `o`, or in an object of vertices alone) belong to the
//! objects that use them: such a block becomes a mesh of its own only for
//! the positions no other object uses (a point cloud keeps its points).
//!
//! Reading is lenient by default, as other readers are, and reports what it
//! passes over in [`Scene::warnings`]: a face of two corners is read as a
//! loose edge, faces and lines with too few corners, faces with an index
//! out of range (or 0) and unknown statements are skipped, and normal
//! indices in a file without normals are ignored (the last two as Blender's
//! importer reads). [`ReadOptions::strict`] refuses them instead.

mod blender_numbers;
mod block;
mod build;
mod curves;
mod fast;
mod parse;
mod plan;
mod resolve;
mod split;
#[cfg(test)]
mod tests;

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::mesh::{Material, Mesh};
use crate::pipeline::Pipeline;
use crate::source::Source;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

use block::{Block, Elements, Kind};
use build::build;
use curves::{CURVE_OUT_OF_RANGE, resolve_curves};
use parse::parse_block;
use plan::{FreeForm, plan};
use resolve::{Foreign, SKIPPED_FACE, resolve, skip_faces};
use split::{block_starts, header, line_count, parse_error};

use super::{ReadWarning, mtl_read, warning};

pub use curves::FreeFormCurve;

/// How to read.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ReadOptions {
    /// Parsing threads; `None` is one per core, `0` is an error.
    #[serde(skip)]
    pub threads: Option<usize>,
    /// Refuse what a lenient read passes over with a warning: unknown
    /// statements, faces of fewer than 3 corners, lines of fewer than 2
    /// points, faces with an index out of range or 0, UV or normal indices
    /// in a file without UVs or normals, MTL files that are missing, unreadable,
    /// malformed or outside [`ReadOptions::mtl_root`].
    pub strict: bool,
    /// Read the MTL files the `mtllib` statements name ([`read`] only).
    pub materials: bool,
    /// The folder MTL files are read from, subfolders included: `None` is the
    /// OBJ file's own folder. A `mtllib` path that leaves it (`../`, an
    /// absolute path, a link out) is not opened. `/` allows any path.
    pub mtl_root: Option<PathBuf>,
    /// How the statements make objects.
    #[serde(default)]
    pub objects: ObjectRule,
}

/// How an OBJ file's statements make objects and their materials.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectRule {
    /// Each `o` starts an object; an object's materials are those its faces
    /// use, in the order they first do.
    #[default]
    Plain,
    /// As Blender's importer (`wm.obj_import`) makes objects: a statement
    /// that starts an object after one that has neither faces nor lines
    /// renames that object instead, and sets the smooth state off (a new
    /// object the statement leaves unnamed is `New object`); an object's
    /// materials are those its `usemtl` statements name, in order, whether
    /// faces use them or not (and, where it has none by its first face, the
    /// one current then, named before it started). An object is one mesh
    /// whatever its faces' layouts, within a face too: a corner without a UV
    /// or normal points at one of zeros, and every face has normals (zeros)
    /// when the file has some, as Blender's importer gives them. A vertex
    /// without a color, in a mesh with colors, has -1s (Blender's importer
    /// tells them apart). Faces of 1 or 2 corners are skipped as faces with
    /// an index out of range are, and the positions Blender's importer keeps
    /// of such faces (those of their corners up to the first index out of
    /// range) are the mesh's [`Mesh::points`](crate::Mesh::points).
    Blender {
        /// `use_split_objects`: each `o` starts an object (else `o` is
        /// passed over).
        split_objects: bool,
        /// `use_split_groups`: each `g` starts an object named after its
        /// text.
        split_groups: bool,
        /// `cstype rat bspline` starts a curve, as it does in the importers
        /// of 4.5 and 5.0 (3.4's skips the statement).
        rational_curves: bool,
        /// `l` lines give an edge per pair of points, as from 4.5 (a line of
        /// one point keeps it, as a loose vertex). Otherwise, as 3.4's
        /// importer reads them, the edge of their first two indices alone:
        /// the second counted as `-1` (the last vertex declared) where
        /// the first is not a plain index or the line has no second.
        whole_lines: bool,
    },
}

impl ObjectRule {
    /// Blender's importer's rule with its default options (an object per
    /// `o`, none per `g`).
    pub const BLENDER: ObjectRule = ObjectRule::Blender {
        split_objects: true,
        split_groups: false,
        rational_curves: true,
        whole_lines: true,
    };

    /// Blender's rule, whatever its options.
    fn is_blender(self) -> bool {
        self != ObjectRule::Plain
    }

    /// The statement `keyword` (`o` or `g`) starts an object.
    fn starts_object(self, keyword: &[u8]) -> bool {
        match self {
            ObjectRule::Plain => keyword == b"o",
            ObjectRule::Blender {
                split_objects,
                split_groups,
                ..
            } => (split_objects && keyword == b"o") || (split_groups && keyword == b"g"),
        }
    }

    /// `l` lines give all their edges (see [`ObjectRule::Blender`]).
    fn whole_lines(self) -> bool {
        match self {
            ObjectRule::Plain => true,
            ObjectRule::Blender { whole_lines, .. } => whole_lines,
        }
    }

    /// `cstype rat bspline` starts a curve.
    fn rational_curves(self) -> bool {
        match self {
            ObjectRule::Plain => true,
            ObjectRule::Blender {
                rational_curves, ..
            } => rational_curves,
        }
    }
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            threads: None,
            strict: false,
            materials: true,
            mtl_root: None,
            objects: ObjectRule::Plain,
        }
    }
}

/// What an OBJ file holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// One mesh per object (per object and face layout where they mix, but
    /// by [`ObjectRule::Blender`]).
    pub meshes: Vec<Mesh<'static>>,
    /// The `mtllib` statements' texts, in file order.
    pub mtllibs: Vec<String>,
    /// The comment lines that open the file, without `#` and one space.
    pub header: Vec<String>,
    /// How many positions, UVs and normals the file declares (`v`, `vt`,
    /// `vn`).
    pub declared: [usize; 3],
    /// Statements skipped: unknown ones (not in strict mode), and those read
    /// but not kept yet (free-form curves).
    pub skipped: u64,
    /// What the read passed over (each kind once, with its first line and count).
    pub warnings: Vec<ReadWarning>,
    /// The free-form curves, in file order ([`FreeFormCurve::meshes_before`]
    /// places them among the meshes).
    pub curves: Vec<FreeFormCurve>,
    /// The meshes (their indices in `meshes`) that had a face skipped for
    /// an index out of range or 0, read leniently.
    pub faces_skipped: Vec<usize>,
    /// The materials of the MTL files read ([`ReadOptions::materials`]), in file order.
    pub materials: Vec<Material>,
    /// The comment lines that open the first MTL file read.
    pub mtl_header: Vec<String>,
    /// The MTL files read.
    pub mtl_files: Vec<PathBuf>,
}

/// Reads the OBJ file at `path`, memory-mapped (read into memory when it
/// cannot be mapped: a pipe, an empty file). With the `remote` feature,
/// `path` may be a URL: the object is fetched into memory, and the MTL
/// files it names are the objects beside it (a name that leaves the OBJ
/// file's prefix, or the [`ReadOptions::mtl_root`] given, is not opened).
pub fn read(path: &Path, options: &ReadOptions) -> Result<Scene> {
    let result = read_file(path, options)?;
    let mut scene = result.map_err(|error| error.in_file(path))?;
    for warning in &mut scene.warnings {
        warning.path = Some(path.to_path_buf());
    }
    if options.materials {
        read_materials(path, &mut scene, options)?;
    }
    Ok(scene)
}

/// The scene of the file at `path` (the outer error: it could not be read).
fn read_file(path: &Path, options: &ReadOptions) -> Result<Result<Scene>> {
    #[cfg(feature = "remote")]
    if crate::remote::is_url(path) {
        return Ok(read_bytes(&crate::source::read_all(path)?, options));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io_at(path, e))?;
    // SAFETY: a private read-only map. Like every reader of mapped files, this
    // relies on no other process truncating the file while it is read (the
    // process would get SIGBUS); a file changed in place only gives other text.
    let map = unsafe { memmap2::MmapOptions::new().map(&file) };
    Ok(match map {
        Ok(map) => read_bytes(&map, options),
        Err(_) => {
            let mut data = Vec::new();
            (&file)
                .read_to_end(&mut data)
                .map_err(|e| Error::io_at(path, e))?;
            read_bytes(&data, options)
        }
    })
}

/// Reads the MTL files the scene's `mtllib` statements name, from inside the
/// MTL root; what cannot be read is a warning (an error if strict).
fn read_materials(path: &Path, scene: &mut Scene, options: &ReadOptions) -> Result<()> {
    let folder = path.parent().unwrap_or(Path::new(""));
    let root = options.mtl_root.as_deref().unwrap_or(folder);
    let (files, refused) = mtl_read::mtl_files(folder, &scene.mtllibs, root);
    // Files outside the root or missing come first, as before any is read.
    let read = files
        .into_iter()
        .map(|file| mtl_read::read_mtl(&file).map(|library| (file, library)));
    for result in refused.into_iter().map(Err).chain(read) {
        match result {
            Ok((file, library)) => {
                if scene.mtl_files.is_empty() {
                    scene.mtl_header = library.header;
                }
                scene.materials.extend(library.materials);
                scene.mtl_files.push(file);
            }
            Err(error) if options.strict => return Err(error.in_file(path)),
            Err(error) => {
                let what = format!("MTL file not read: {error}");
                warning::add(&mut scene.warnings, Some(path), 0, &what, 1);
            }
        }
    }
    Ok(())
}

/// Reads the OBJ text of `source` (all of it, then parsed as
/// [`read_bytes`]): a file object, which lies in no folder, so the MTL
/// files it names are not read (a warning, an error if strict, when
/// [`ReadOptions::materials`] asks for them).
pub fn read_source(source: &dyn Source, options: &ReadOptions) -> Result<Scene> {
    let data = crate::source::read_whole(source)?;
    let mut scene = read_bytes(&data, options)?;
    if options.materials && !scene.mtllibs.is_empty() {
        let what =
            "MTL files not read: the OBJ file was read from a stream, which lies in no folder";
        if options.strict {
            return Err(parse_error(0, what));
        }
        warning::add(
            &mut scene.warnings,
            None,
            0,
            what,
            scene.mtllibs.len() as u64,
        );
    }
    Ok(scene)
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
        parse_block(text, options.strict, options.objects).map_err(|e| (i, e))
    });
    let mut blocks = parsed
        .into_iter()
        .collect::<Located<Vec<_>>>()
        .map_err(located)?;
    let mut scene = Scene {
        header: header(data),
        skipped: blocks.iter().map(|b| b.skipped).sum(),
        ..Scene::default()
    };
    if blocks.iter().any(|b| !b.warnings.is_empty()) {
        // Lines are counted from a block's start: add the lines before it.
        let mut lines_before = 0;
        for (block, start) in blocks.iter().zip(starts.windows(2)) {
            for w in &block.warnings {
                warning::add(
                    &mut scene.warnings,
                    None,
                    lines_before + w.line,
                    &w.what,
                    w.count,
                );
            }
            lines_before += line_count(&data[start[0]..start[1]]);
        }
    }
    // UV indices in a file without UVs are ignored, read leniently (as
    // Blender's importer reads them).
    let no_uvs = !options.strict && blocks.iter().all(|b| b.uvs.is_empty());
    if no_uvs && blocks.iter().any(|b| b.corners.iter().any(|c| c[1] != 0)) {
        warning::add(&mut scene.warnings, None, 0, UVS_IGNORED, 1);
        blocks.iter_mut().for_each(forget_uvs);
    }
    let elements = Elements::new(&blocks);
    scene.declared = elements.sizes();
    let blender = options.objects.is_blender();
    // Normal indices in a file without normals are ignored, read leniently.
    let normals = options.strict || elements.sizes()[Kind::Normal as usize] > 0;
    if !normals && blocks.iter().any(|b| has_normal_indices(b)) {
        warning::add(&mut scene.warnings, None, 0, NORMALS_IGNORED, 1);
    }
    let mut free_form = FreeForm::default();
    let (plans, mut arrays) = plan(
        &blocks,
        &elements,
        options.objects,
        normals,
        &mut scene.mtllibs,
        &mut free_form,
    )
    .map_err(located)?;
    if free_form.dropped > 0 {
        let what =
            "faces and lines given to a free-form curve skipped (Blender's importer drops them)";
        warning::add(&mut scene.warnings, None, 0, what, free_form.dropped as u64);
    }
    let mut foreign = resolve(
        &pipeline,
        &blocks,
        &elements,
        &plans,
        &mut arrays,
        options.strict,
        normals,
        options.objects,
    )
    .map_err(located)?;
    if foreign.iter().any(|f| !f.skipped.is_empty()) {
        let first = skip_faces(
            &plans,
            &mut arrays,
            &mut foreign,
            &blocks,
            &elements,
            options.objects,
        );
        if let Some((block, line)) = first {
            let skipped = foreign.iter().flat_map(|f| &f.skipped);
            warning::add(
                &mut scene.warnings,
                None,
                line_count(&data[..starts[block]]) + line,
                SKIPPED_FACE,
                skipped.filter(|s| s.1.is_some()).count() as u64,
            );
        }
    }
    // Blocks of positions without faces or lines: their first position, to
    // keep only the positions no other object uses.
    let faceless: Vec<Option<usize>> = plans
        .iter()
        .map(|p| p.segments.is_empty().then_some(p.first[0]))
        .collect();
    let used = faceless
        .iter()
        .any(Option::is_some)
        .then(|| used_positions(&foreign, elements.sizes()[0]));
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
    let skipped_in: Vec<bool> = (work.iter())
        .map(|(_, _, found)| found.iter().any(Foreign::skipped_out_of_range))
        .collect();
    let meshes = pipeline.map(work, |(plan, arrays, found)| {
        build(plan, arrays, &found, &blocks, &elements, &colors, blender)
    });
    let meshes: Vec<Option<Mesh>> = meshes
        .into_iter()
        .zip(faceless)
        .map(|(mesh, first)| match (first, &used) {
            (Some(first), Some(used)) => unused_points(mesh, first, used),
            _ => Some(mesh),
        })
        // (An object all of whose faces were skipped, with nothing else.)
        .map(|mesh| mesh.filter(|mesh| !mesh.positions.is_empty()))
        .collect();
    let kept: Vec<bool> = meshes.iter().map(Option::is_some).collect();
    scene.faces_skipped = (kept.iter().zip(&skipped_in))
        .filter(|(kept, _)| **kept)
        .enumerate()
        .filter(|(_, (_, skipped))| **skipped)
        .map(|(m, _)| m)
        .collect();
    scene.meshes = meshes.into_iter().flatten().collect();
    let (curves, skipped) =
        resolve_curves(free_form.curves, &blocks, &elements, &kept, options.strict)
            .map_err(located)?;
    scene.curves = curves;
    if let Some(skipped) = skipped {
        let line = line_count(&data[..starts[skipped.block]]) + skipped.line;
        warning::add(
            &mut scene.warnings,
            None,
            line,
            CURVE_OUT_OF_RANGE,
            skipped.count,
        );
    }
    Ok(scene)
}

/// The warning of normal indices ignored.
const NORMALS_IGNORED: &str = "normal indices ignored: the file has no normals (vn)";

/// The warning of UV indices ignored.
const UVS_IGNORED: &str = "UV indices ignored: the file has no UVs (vt)";

/// Takes the UV indices out of `block`'s faces.
fn forget_uvs(block: &mut Block) {
    block.corners.iter_mut().for_each(|c| c[1] = 0);
    for span in &mut block.spans {
        // Each layout seen becomes the one without UVs.
        span.layouts = (span.layouts | span.layouts >> 2) & 0b11;
    }
}

/// Some face of `block` has normal indices.
fn has_normal_indices(block: &Block) -> bool {
    block.corners.iter().any(|c| c[2] != 0)
}

/// Which positions some object uses from outside its own.
fn used_positions(foreign: &[Foreign], positions: usize) -> Vec<bool> {
    let mut used = vec![false; positions];
    for f in foreign {
        for r in f.positions.iter().chain(&f.edge_points).chain(&f.points) {
            used[r.element] = true;
        }
        for &g in &f.kept {
            used[g] = true;
        }
    }
    used
}

/// A mesh of positions alone (no faces, no lines), starting at global
/// position `first`, with only the positions no other object uses: `None`
/// when every one is used elsewhere (the block was shared, not a mesh).
fn unused_points(mut mesh: Mesh<'static>, first: usize, used: &[bool]) -> Option<Mesh<'static>> {
    let keep = |i: usize| !used[first + i];
    if (0..mesh.positions.len()).all(keep) {
        return Some(mesh);
    }
    let kept = |values: &[[f32; 3]]| -> Vec<[f32; 3]> {
        let values = values.iter().enumerate();
        values.filter(|(i, _)| keep(*i)).map(|(_, v)| *v).collect()
    };
    let positions = kept(&mesh.positions);
    if positions.is_empty() {
        return None;
    }
    mesh.colors = mesh.colors.map(|c| kept(&c).into());
    mesh.positions = positions.into();
    Some(mesh)
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
