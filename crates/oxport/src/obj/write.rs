//! The OBJ writer: every mesh cut into chunks of lines, formatted on all
//! cores by the ordered pipeline, written in order.

use std::borrow::Cow;
use std::io::Write;
use std::path::Path;

use crate::direct::DirectWriter;
use crate::mesh::Mesh;
use crate::numfmt;
use crate::pipeline::Pipeline;
use crate::{Error, Result, atomic};
use serde::{Deserialize, Serialize};

use super::precision::{PRECISIONS, Precision};
use super::{dedup, refuse_line_break};

/// What to write and how. The defaults are Blender 3.4's.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WriteOptions {
    /// Positions.
    pub precision: Precision,
    /// Texture coordinates.
    pub uv_precision: Precision,
    /// Normals.
    pub normal_precision: Precision,
    /// Vertex colors (`v x y z r g b`): 4 decimals, as Blender writes them.
    pub color_precision: Precision,
    /// Write normals (`vn`, and `v//n` corners).
    pub normals: bool,
    /// Write texture coordinates (`vt`).
    pub uvs: bool,
    /// Write vertex colors.
    pub colors: bool,
    /// `usemtl` statements (and the `mtllib` line).
    pub materials: bool,
    /// Each mesh starts with `g NAME` instead of `o NAME` (Blender's "object
    /// groups", where the name is `OBJECT_MESH`).
    pub object_groups: bool,
    /// Merge normals whose text is the same, keeping the first appearance (Blender does).
    pub deduplicate_normals: bool,
    /// Merge UVs whose text is the same, keeping the first appearance.
    pub deduplicate_uvs: bool,
    /// Lines written first, each as `# line`.
    pub header: Vec<String>,
    /// The `mtllib` statement's file name.
    pub mtllib: Option<String>,
    /// How curves and the MTL file's texture options are laid out.
    pub dialect: super::Dialect,
    /// Encoding threads; `None` is one per core.
    #[serde(skip)]
    pub threads: Option<usize>,
    /// Elements (vertices, faces, edges) per chunk at most: Blender's 32k by
    /// default. Chunks of small objects go to the threads together.
    pub chunk_size: usize,
    /// Write around the page cache (`O_DIRECT`, Linux) where the file system
    /// allows it: much faster for big files where the kernel is slow to hand
    /// out cache pages (virtual machines), and the cache is not flushed of
    /// other data; the file is then not in the cache for a reader right after.
    pub direct: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            precision: Precision::Fixed(6),
            uv_precision: Precision::Fixed(6),
            normal_precision: Precision::Fixed(4),
            color_precision: Precision::Fixed(4),
            normals: true,
            uvs: true,
            colors: true,
            materials: true,
            object_groups: false,
            deduplicate_normals: false,
            deduplicate_uvs: false,
            header: Vec::new(),
            mtllib: None,
            dialect: super::Dialect::default(),
            threads: None,
            chunk_size: 32 * 1024,
            direct: false,
        }
    }
}

impl WriteOptions {
    pub(crate) fn validate(&self) -> Result<()> {
        for (name, precision) in [
            ("precision", self.precision),
            ("uv_precision", self.uv_precision),
            ("normal_precision", self.normal_precision),
            ("color_precision", self.color_precision),
        ] {
            if let Precision::Fixed(p) = precision {
                Precision::fixed(p.into())
                    .map_err(|_| Error::invalid(format!("{name} {p}: {PRECISIONS}")))?;
            }
        }
        if self.chunk_size == 0 {
            return Err(Error::invalid("chunk_size must be at least 1"));
        }
        for line in &self.header {
            refuse_line_break("header line", line)?;
        }
        if let Some(mtllib) = &self.mtllib {
            refuse_line_break("mtllib", mtllib)?;
        }
        Ok(())
    }
}

/// What a write produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteSummary {
    /// Bytes written.
    pub bytes: u64,
    /// Objects written.
    pub objects: u64,
    /// Vertex positions written.
    pub vertices: u64,
    /// Faces written.
    pub faces: u64,
    /// Threads used.
    pub threads: usize,
    /// Whether the file was written around the page cache (`O_DIRECT`):
    /// asked for with [`WriteOptions::direct`] and allowed by the file system.
    pub direct: bool,
}

/// Writes `meshes` to `path` atomically: into a temporary file beside it,
/// renamed over `path` once everything is written, removed on any error.
pub fn write(path: &Path, meshes: &[Mesh], options: &WriteOptions) -> Result<WriteSummary> {
    write_with_progress(path, meshes, options, |_, _| {})
}

/// [`write()`], calling `progress(done, total)` (in elements) as blocks are written.
pub fn write_with_progress(
    path: &Path,
    meshes: &[Mesh],
    options: &WriteOptions,
    progress: impl FnMut(u64, u64),
) -> Result<WriteSummary> {
    meshes.iter().try_for_each(Mesh::validate)?;
    let mut writer = FileWriter::create(path, options.clone())?;
    writer.write_valid(meshes, progress)?;
    writer.finish()
}

/// Writes `meshes` to any byte sink.
pub fn write_to<W: Write>(out: W, meshes: &[Mesh], options: &WriteOptions) -> Result<WriteSummary> {
    meshes.iter().try_for_each(Mesh::validate)?;
    let mut writer = Writer::new(out, options.clone())?;
    writer.write_valid(meshes, |_, _| {})?;
    Ok(writer.finish()?.1)
}

/// An OBJ stream: the header first, then meshes batch after batch as they
/// come, indices continuing across batches. The bytes are those of one
/// [`write_to`] call with all the meshes.
pub struct Writer<W: Write> {
    out: W,
    options: WriteOptions,
    pipeline: Pipeline,
    next: Offsets,
    summary: WriteSummary,
}

impl<W: Write> Writer<W> {
    /// Checks the options and writes the header.
    pub fn new(mut out: W, options: WriteOptions) -> Result<Self> {
        options.validate()?;
        let pipeline = Pipeline::new(options.threads)?;
        let mut header = Vec::new();
        encode(Chunk::Header, &[], &[], &options, &mut header);
        out.write_all(&header)?;
        let summary = WriteSummary {
            bytes: header.len() as u64,
            threads: pipeline.threads(),
            ..WriteSummary::default()
        };
        let next = Offsets {
            position: 1,
            uv: 1,
            normal: 1,
        };
        Ok(Writer {
            out,
            options,
            pipeline,
            next,
            summary,
        })
    }

    /// Writes `meshes` after those already written.
    pub fn write(&mut self, meshes: &[Mesh]) -> Result<()> {
        self.write_with_progress(meshes, |_, _| {})
    }

    /// [`Writer::write`], calling `progress(done, total)` (in elements of
    /// these meshes) as blocks are written.
    pub fn write_with_progress(
        &mut self,
        meshes: &[Mesh],
        progress: impl FnMut(u64, u64),
    ) -> Result<()> {
        meshes.iter().try_for_each(Mesh::validate)?;
        self.write_valid(meshes, progress)
    }

    /// [`Writer::write_with_progress`] for meshes already validated.
    fn write_valid(&mut self, meshes: &[Mesh], mut progress: impl FnMut(u64, u64)) -> Result<()> {
        let options = &self.options;
        // Deduplication rewrites a mesh's normals or UVs; everything else is borrowed.
        let normals =
            (options.deduplicate_normals && options.normals).then_some(options.normal_precision);
        let uvs = (options.deduplicate_uvs && options.uvs).then_some(options.uv_precision);
        let meshes: Vec<Cow<Mesh>> = if normals.is_some() || uvs.is_some() {
            dedup::deduplicate(meshes, normals, uvs, &self.pipeline)
        } else {
            meshes.iter().map(Cow::Borrowed).collect()
        };
        let mut offsets = Vec::with_capacity(meshes.len());
        for mesh in &meshes {
            offsets.push(self.next);
            self.next.position += mesh.positions.len() as u64;
            self.next.uv += mesh
                .uvs
                .as_ref()
                .filter(|_| options.uvs)
                .map_or(0, |v| v.len()) as u64;
            self.next.normal += mesh
                .normals
                .as_ref()
                .filter(|_| options.normals)
                .map_or(0, |v| v.len()) as u64;
        }
        let chunks = plan(&meshes, options);
        // Thousands of small objects go to the threads in tasks as big as
        // one large object's.
        let weights: Vec<usize> = chunks.iter().map(|c| c.bytes()).collect();
        let jobs = self.pipeline.tasks(&weights);
        let total: u64 = chunks.iter().map(|c| c.elements()).sum();
        let summary = &mut self.summary;
        summary.objects += meshes.len() as u64;
        summary.vertices += meshes.iter().map(|m| m.positions.len() as u64).sum::<u64>();
        summary.faces += meshes.iter().map(|m| m.face_count() as u64).sum::<u64>();
        // Blocks reach the sink in job order, so the n-th block is job n.
        let (mut done, mut written) = (0, 0);
        let (meshes, offsets, chunks, out) = (&meshes, &offsets, &chunks, &mut self.out);
        self.pipeline.run(
            jobs.iter().cloned(),
            |job, block| {
                for &chunk in &chunks[job] {
                    encode(chunk, meshes, offsets, options, block);
                }
                Ok(())
            },
            |block| {
                out.write_all(block)?;
                summary.bytes += block.len() as u64;
                done += chunks[jobs[written].clone()]
                    .iter()
                    .map(|c| c.elements())
                    .sum::<u64>();
                written += 1;
                progress(done, total);
                Ok(())
            },
        )
    }

    /// Writes `text` as it is, after what was written: for statements the
    /// mesh model does not have (free-form curves). Indices of meshes written
    /// later do not count any `v` lines in it; free-form curves use relative
    /// indices and come last.
    pub fn write_text(&mut self, text: &str) -> Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.summary.bytes += text.len() as u64;
        Ok(())
    }

    /// Writes free-form `curves` after what was written ([`super::encode_curves`]):
    /// Blender writes them after every mesh, as relative indices.
    pub fn write_curves(&mut self, curves: &[crate::mesh::Curve]) -> Result<()> {
        let text = super::encode_curves(curves, self.options.dialect.curves)?;
        self.out.write_all(&text)?;
        self.summary.bytes += text.len() as u64;
        Ok(())
    }

    /// Flushes the sink and gives it back with what was written.
    pub fn finish(mut self) -> Result<(W, WriteSummary)> {
        self.out.flush()?;
        Ok((self.out, self.summary))
    }
}

/// A [`Writer`] into a file that appears whole or not at all: a temporary file
/// beside the target, renamed by [`FileWriter::finish`]; dropped unfinished
/// (an error, a panic, a cancelled export), it removes the temporary file.
pub struct FileWriter {
    writer: Writer<Sink>,
    pending: atomic::Pending,
}

impl FileWriter {
    /// Opens the temporary file (with `O_DIRECT` when `options.direct` asks
    /// for it and the file system allows it) and writes the header.
    pub fn create(path: &Path, options: WriteOptions) -> Result<Self> {
        let (pending, file, direct) = atomic::Pending::open(path, options.direct)?;
        let sink = if direct {
            Sink::Direct(DirectWriter::new(file))
        } else {
            Sink::Buffered(std::io::BufWriter::with_capacity(1 << 16, file))
        };
        let mut writer = Writer::new(sink, options).map_err(|e| pending.name(e))?;
        writer.summary.direct = direct;
        Ok(FileWriter { writer, pending })
    }

    /// Writes `meshes` after those already written.
    pub fn write(&mut self, meshes: &[Mesh]) -> Result<()> {
        self.write_with_progress(meshes, |_, _| {})
    }

    /// The lines each block of the file holds at most (the options'
    /// `chunk_size`): what a caller grouping meshes for it counts in.
    pub fn chunk_size(&self) -> usize {
        self.writer.options.chunk_size
    }

    /// [`FileWriter::write`] with progress, as [`Writer::write_with_progress`].
    pub fn write_with_progress(
        &mut self,
        meshes: &[Mesh],
        progress: impl FnMut(u64, u64),
    ) -> Result<()> {
        self.writer
            .write_with_progress(meshes, progress)
            .map_err(|e| self.pending.name(e))
    }

    /// [`FileWriter::write_with_progress`] for meshes already validated.
    pub(crate) fn write_valid(
        &mut self,
        meshes: &[Mesh],
        progress: impl FnMut(u64, u64),
    ) -> Result<()> {
        self.writer
            .write_valid(meshes, progress)
            .map_err(|e| self.pending.name(e))
    }

    /// [`Writer::write_text`].
    pub fn write_text(&mut self, text: &str) -> Result<()> {
        self.writer
            .write_text(text)
            .map_err(|e| self.pending.name(e))
    }

    /// [`Writer::write_curves`].
    pub fn write_curves(&mut self, curves: &[crate::mesh::Curve]) -> Result<()> {
        self.writer
            .write_curves(curves)
            .map_err(|e| self.pending.name(e))
    }

    /// Writes `library` as the MTL file this OBJ file names (`mtllib`, beside
    /// it), atomically, and then completes the OBJ file: an OBJ file never
    /// names an MTL file that was not written. Without `mtllib` the
    /// materials have no file to go to: an error, and neither file appears.
    pub fn finish_with_mtl(self, library: &super::MaterialLibrary) -> Result<WriteSummary> {
        let Some(name) = &self.writer.options.mtllib else {
            return Err(Error::invalid(
                "materials for an MTL file, but the OBJ file names none (mtllib)",
            ));
        };
        let folder = self.pending.path().parent().unwrap_or(Path::new(""));
        let options = &self.writer.options;
        super::write_mtl(
            &folder.join(name),
            &library.materials,
            &library.header,
            options.dialect,
        )?;
        self.finish()
    }

    /// Completes the file and renames it to its path.
    pub fn finish(self) -> Result<WriteSummary> {
        let FileWriter { writer, pending } = self;
        let (sink, summary) = writer.finish().map_err(|e| pending.name(e))?;
        sink.finish().map_err(|e| pending.name(e.into()))?;
        pending.commit()?;
        Ok(summary)
    }
}

/// Where a [`FileWriter`]'s bytes go: through a buffer, or around the page cache.
enum Sink {
    Buffered(std::io::BufWriter<std::fs::File>),
    Direct(DirectWriter),
}

impl Sink {
    fn finish(self) -> std::io::Result<()> {
        match self {
            Sink::Buffered(mut out) => out.flush(),
            Sink::Direct(out) => out.finish(),
        }
    }
}

impl Write for Sink {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::Buffered(out) => out.write(data),
            Sink::Direct(out) => out.write(data),
        }
    }

    fn write_all(&mut self, data: &[u8]) -> std::io::Result<()> {
        match self {
            Sink::Buffered(out) => out.write_all(data),
            Sink::Direct(out) => out.write_all(data),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Buffered(out) => out.flush(),
            Sink::Direct(out) => out.flush(),
        }
    }
}

/// The kinds of lines of a mesh, in the order they are written.
#[derive(Clone, Copy)]
enum Lines {
    Positions,
    Normals,
    Uvs,
    Faces,
    Edges,
    Points,
}

/// One unit of work for the pipeline.
#[derive(Clone, Copy)]
enum Chunk {
    /// The file header (`#` lines, `mtllib`).
    Header,
    /// `o NAME` (or `g NAME`) for mesh `m`.
    Object { m: usize },
    /// Elements `start..end` of one kind of mesh `m`.
    Lines {
        m: usize,
        lines: Lines,
        start: usize,
        end: usize,
    },
}

impl Chunk {
    fn elements(self) -> u64 {
        match self {
            Chunk::Header | Chunk::Object { .. } => 0,
            Chunk::Lines { start, end, .. } => (end - start) as u64,
        }
    }

    /// About the bytes it writes: the measure of its work when chunks are
    /// shared out ([`Pipeline::tasks`]).
    fn bytes(self) -> usize {
        match self {
            Chunk::Header | Chunk::Object { .. } => 32,
            Chunk::Lines {
                lines, start, end, ..
            } => {
                let line = match lines {
                    Lines::Positions => 32,
                    Lines::Normals => 24,
                    Lines::Uvs => 20,
                    Lines::Faces => 48,
                    Lines::Edges => 16,
                    Lines::Points => 10,
                };
                (end - start) * line
            }
        }
    }
}

/// Global 1-based index bases of each mesh's positions, UVs and normals.
#[derive(Clone, Copy, Default)]
struct Offsets {
    position: u64,
    uv: u64,
    normal: u64,
}

/// The chunks of the whole file, in output order.
fn plan(meshes: &[Cow<Mesh>], options: &WriteOptions) -> Vec<Chunk> {
    let size = options.chunk_size;
    let mut chunks = Vec::new();
    for (m, mesh) in meshes.iter().enumerate() {
        chunks.push(Chunk::Object { m });
        let normals = mesh.normals.as_ref().filter(|_| options.normals);
        let uvs = mesh.uvs.as_ref().filter(|_| options.uvs);
        for (lines, count) in [
            (Lines::Positions, mesh.positions.len()),
            (Lines::Normals, normals.map_or(0, |n| n.len())),
            (Lines::Uvs, uvs.map_or(0, |u| u.len())),
            (Lines::Faces, mesh.face_count()),
            (Lines::Edges, mesh.edges.as_ref().map_or(0, |e| e.len())),
            (Lines::Points, mesh.points.as_ref().map_or(0, |p| p.len())),
        ] {
            chunks.extend((0..count.div_ceil(size)).map(|i| Chunk::Lines {
                m,
                lines,
                start: i * size,
                end: ((i + 1) * size).min(count),
            }));
        }
    }
    chunks
}

#[inline]
fn write_float(out: &mut Vec<u8>, value: f32, precision: Precision) {
    match precision {
        Precision::Fixed(p) => numfmt::write_fixed(out, value, usize::from(p)),
        Precision::Shortest => numfmt::write_shortest(out, value),
    }
}

fn encode(
    chunk: Chunk,
    meshes: &[Cow<Mesh>],
    offsets: &[Offsets],
    options: &WriteOptions,
    out: &mut Vec<u8>,
) {
    match chunk {
        Chunk::Header => {
            for line in &options.header {
                out.extend_from_slice(b"# ");
                out.extend_from_slice(line.as_bytes());
                out.push(b'\n');
            }
            if let Some(mtllib) = &options.mtllib {
                out.extend_from_slice(b"mtllib ");
                out.extend_from_slice(mtllib.as_bytes());
                out.push(b'\n');
            }
        }
        Chunk::Object { m } => {
            out.extend_from_slice(if options.object_groups { b"g " } else { b"o " });
            out.extend_from_slice(meshes[m].name.as_bytes());
            out.push(b'\n');
        }
        Chunk::Lines {
            m,
            lines,
            start,
            end,
        } => encode_lines(&meshes[m], offsets[m], lines, start..end, options, out),
    }
}

fn encode_lines(
    mesh: &Mesh,
    base: Offsets,
    lines: Lines,
    range: std::ops::Range<usize>,
    options: &WriteOptions,
    out: &mut Vec<u8>,
) {
    let (start, end) = (range.start, range.end);
    match lines {
        Lines::Positions => match mesh.colors.as_deref().filter(|_| options.colors) {
            None => encode_rows(out, b"v", &mesh.positions[start..end], options.precision),
            Some(colors) => {
                out.reserve((end - start) * 64);
                for (position, color) in mesh.positions[start..end].iter().zip(&colors[start..end])
                {
                    out.push(b'v');
                    for &x in position {
                        out.push(b' ');
                        write_float(out, x, options.precision);
                    }
                    for &x in color {
                        out.push(b' ');
                        write_float(out, x, options.color_precision);
                    }
                    out.push(b'\n');
                }
            }
        },
        Lines::Normals => {
            let normals = mesh.normals.as_deref().unwrap_or_default();
            encode_rows(out, b"vn", &normals[start..end], options.normal_precision);
        }
        Lines::Uvs => {
            let uvs = mesh.uvs.as_deref().unwrap_or_default();
            encode_rows(out, b"vt", &uvs[start..end], options.uv_precision);
        }
        Lines::Faces => encode_faces(mesh, base, options, start, end, out),
        Lines::Edges => {
            let edges = mesh.edges.as_deref().unwrap_or_default();
            let base = base.position;
            for edge in &edges[start..end] {
                out.extend_from_slice(b"l ");
                numfmt::write_u64(out, base + u64::from(edge[0]));
                out.push(b' ');
                numfmt::write_u64(out, base + u64::from(edge[1]));
                out.push(b'\n');
            }
        }
        Lines::Points => {
            let points = mesh.points.as_deref().unwrap_or_default();
            for &point in &points[start..end] {
                out.extend_from_slice(b"p ");
                numfmt::write_u64(out, base.position + u64::from(point));
                out.push(b'\n');
            }
        }
    }
}

/// `TAG x y ...` per row.
fn encode_rows<const N: usize>(
    out: &mut Vec<u8>,
    tag: &[u8],
    rows: &[[f32; N]],
    precision: Precision,
) {
    // Room for the usual lines (6 decimals of values below 1000) without growing.
    out.reserve(rows.len() * (tag.len() + 1 + N * 12));
    for row in rows {
        out.extend_from_slice(tag);
        for &x in row {
            out.push(b' ');
            write_float(out, x, precision);
        }
        out.push(b'\n');
    }
}

/// The number of decimal digits of `value`.
fn digit_count(value: u64) -> usize {
    value.checked_ilog10().map_or(1, |log| log as usize + 1)
}

/// Faces `start..end` of `mesh`, with `s`, `g` and `usemtl` where the smooth
/// group, the group or the material differs from the previous face's (always
/// at the mesh's first face).
fn encode_faces(
    mesh: &Mesh,
    base: Offsets,
    options: &WriteOptions,
    start: usize,
    end: usize,
    out: &mut Vec<u8>,
) {
    let uv_indices = mesh.uv_indices.as_deref().filter(|_| options.uvs);
    let normal_indices = mesh.normal_indices.as_deref().filter(|_| options.normals);
    let smooth = mesh.smooth.as_deref();
    let groups = mesh.group_indices.as_deref();
    let materials = mesh
        .material_indices
        .as_deref()
        .filter(|_| options.materials);
    let offsets = &mesh.face_offsets;
    // Room for every corner's indices at their widest, so that the buffer
    // never grows (a copy of all it holds, and fresh pages).
    let width = |base: u64, count: usize| digit_count(base + count as u64);
    let corner = 1
        + width(base.position, mesh.positions.len())
        + uv_indices.map_or(0, |_| {
            1 + width(base.uv, mesh.uvs.as_ref().map_or(0, |u| u.len()))
        })
        + normal_indices.map_or(0, |_| {
            2 + width(base.normal, mesh.normals.as_ref().map_or(0, |n| n.len()))
        });
    out.reserve((offsets[end] - offsets[start]) as usize * corner + (end - start) * 2);
    for face in start..end {
        if let Some(smooth) = smooth
            && (face == 0 || smooth[face] != smooth[face - 1])
        {
            out.extend_from_slice(b"s ");
            numfmt::write_u32(out, smooth[face]);
            out.push(b'\n');
        }
        if let Some(groups) = groups
            && (face == 0 || groups[face] != groups[face - 1])
        {
            out.extend_from_slice(b"g ");
            out.extend_from_slice(mesh.groups[groups[face] as usize].as_bytes());
            out.push(b'\n');
        }
        if let Some(materials) = materials
            && (face == 0 || materials[face] != materials[face - 1])
        {
            out.extend_from_slice(b"usemtl ");
            out.extend_from_slice(mesh.materials[materials[face] as usize].as_bytes());
            out.push(b'\n');
        }
        out.push(b'f');
        let corners = offsets[face] as usize..offsets[face + 1] as usize;
        match (uv_indices, normal_indices) {
            (Some(uv), Some(normal)) => {
                for c in corners {
                    out.push(b' ');
                    numfmt::write_u64(out, base.position + u64::from(mesh.position_indices[c]));
                    out.push(b'/');
                    numfmt::write_u64(out, base.uv + u64::from(uv[c]));
                    out.push(b'/');
                    numfmt::write_u64(out, base.normal + u64::from(normal[c]));
                }
            }
            (None, Some(normal)) => {
                for c in corners {
                    out.push(b' ');
                    numfmt::write_u64(out, base.position + u64::from(mesh.position_indices[c]));
                    out.extend_from_slice(b"//");
                    numfmt::write_u64(out, base.normal + u64::from(normal[c]));
                }
            }
            (Some(uv), None) => {
                for c in corners {
                    out.push(b' ');
                    numfmt::write_u64(out, base.position + u64::from(mesh.position_indices[c]));
                    out.push(b'/');
                    numfmt::write_u64(out, base.uv + u64::from(uv[c]));
                }
            }
            (None, None) => {
                for c in corners {
                    out.push(b' ');
                    numfmt::write_u64(out, base.position + u64::from(mesh.position_indices[c]));
                }
            }
        }
        out.push(b'\n');
    }
}
