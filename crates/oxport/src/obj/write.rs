//! The OBJ writer: every mesh cut into chunks of lines, formatted on all
//! cores by the ordered pipeline, written in order.

use std::borrow::Cow;
use std::io::Write;
use std::path::Path;

use crate::mesh::Mesh;
use crate::numfmt::{self, MAX_PRECISION};
use crate::pipeline::Pipeline;
use crate::{Error, Result, atomic};

use super::dedup;

/// How many decimals a kind of number gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// `printf("%.Nf")`, N from 0 to 9.
    Fixed(u8),
    /// The shortest text that reads back as the same `f32`.
    Shortest,
}

/// What to write and how. The defaults are Blender 3.4's.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// Positions and vertex colors.
    pub precision: Precision,
    pub uv_precision: Precision,
    pub normal_precision: Precision,
    pub normals: bool,
    pub uvs: bool,
    pub colors: bool,
    /// `usemtl` statements (and the `mtllib` line).
    pub materials: bool,
    /// Merge normals whose text is the same, keeping the first appearance (Blender does).
    pub deduplicate_normals: bool,
    /// Merge UVs whose text is the same, keeping the first appearance.
    pub deduplicate_uvs: bool,
    /// Lines written first, each as `# line`.
    pub header: Vec<String>,
    /// The `mtllib` statement's file name.
    pub mtllib: Option<String>,
    /// Encoding threads; `None` is one per core.
    pub threads: Option<usize>,
    /// Elements (vertices, faces, edges) per chunk: Blender's 32k by default.
    pub chunk_size: usize,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            precision: Precision::Fixed(6),
            uv_precision: Precision::Fixed(6),
            normal_precision: Precision::Fixed(4),
            normals: true,
            uvs: true,
            colors: true,
            materials: true,
            deduplicate_normals: false,
            deduplicate_uvs: false,
            header: Vec::new(),
            mtllib: None,
            threads: None,
            chunk_size: 32 * 1024,
        }
    }
}

impl WriteOptions {
    fn validate(&self) -> Result<()> {
        for (name, precision) in [
            ("precision", self.precision),
            ("uv_precision", self.uv_precision),
            ("normal_precision", self.normal_precision),
        ] {
            if let Precision::Fixed(p) = precision
                && usize::from(p) > MAX_PRECISION
            {
                return Err(Error::invalid(format!(
                    "{name} is {p}; it must be 0 to {MAX_PRECISION} or shortest"
                )));
            }
        }
        if self.chunk_size == 0 {
            return Err(Error::invalid("chunk_size must be at least 1"));
        }
        if let Some(line) = self.header.iter().find(|l| l.contains(['\n', '\r'])) {
            return Err(Error::invalid(format!(
                "header line {line:?} contains a line break"
            )));
        }
        if let Some(mtllib) = &self.mtllib
            && mtllib.contains(['\n', '\r'])
        {
            return Err(Error::invalid("mtllib contains a line break"));
        }
        Ok(())
    }
}

/// What a write produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteSummary {
    pub bytes: u64,
    pub objects: u64,
    pub vertices: u64,
    pub faces: u64,
    pub threads: usize,
}

/// Writes `meshes` to `path` atomically: into a temporary file beside it,
/// renamed over `path` once everything is written, removed on any error.
pub fn write(path: &Path, meshes: &[Mesh], options: &WriteOptions) -> Result<WriteSummary> {
    write_with_progress(path, meshes, options, |_, _| {})
}

/// [`write`], calling `progress(done, total)` (in elements) as blocks are written.
pub fn write_with_progress(
    path: &Path,
    meshes: &[Mesh],
    options: &WriteOptions,
    progress: impl FnMut(u64, u64),
) -> Result<WriteSummary> {
    prepare(meshes, options)?;
    atomic::write_file(path, |file| {
        write_unchecked(
            std::io::BufWriter::with_capacity(1 << 16, file),
            meshes,
            options,
            progress,
        )
    })
}

/// Writes `meshes` to any byte sink.
pub fn write_to<W: Write>(out: W, meshes: &[Mesh], options: &WriteOptions) -> Result<WriteSummary> {
    prepare(meshes, options)?;
    write_unchecked(out, meshes, options, |_, _| {})
}

fn prepare(meshes: &[Mesh], options: &WriteOptions) -> Result<()> {
    options.validate()?;
    meshes.iter().try_for_each(Mesh::validate)
}

/// One unit of work for the pipeline.
#[derive(Clone, Copy)]
enum Chunk {
    /// The file header (`#` lines, `mtllib`).
    Header,
    /// `o NAME` for mesh `m`.
    Object {
        m: usize,
    },
    Positions {
        m: usize,
        start: usize,
        end: usize,
    },
    Normals {
        m: usize,
        start: usize,
        end: usize,
    },
    Uvs {
        m: usize,
        start: usize,
        end: usize,
    },
    Faces {
        m: usize,
        start: usize,
        end: usize,
    },
    Edges {
        m: usize,
        start: usize,
        end: usize,
    },
}

impl Chunk {
    fn elements(self) -> u64 {
        match self {
            Chunk::Header | Chunk::Object { .. } => 0,
            Chunk::Positions { start, end, .. }
            | Chunk::Normals { start, end, .. }
            | Chunk::Uvs { start, end, .. }
            | Chunk::Faces { start, end, .. }
            | Chunk::Edges { start, end, .. } => (end - start) as u64,
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

fn write_unchecked<W: Write>(
    mut out: W,
    meshes: &[Mesh],
    options: &WriteOptions,
    mut progress: impl FnMut(u64, u64),
) -> Result<WriteSummary> {
    let pipeline = Pipeline::new(options.threads)?;
    // Deduplication rewrites a mesh's normals or UVs; everything else is borrowed.
    let meshes: Vec<Cow<Mesh>> = if options.deduplicate_normals || options.deduplicate_uvs {
        dedup::deduplicate(meshes, options, &pipeline)
    } else {
        meshes.iter().map(Cow::Borrowed).collect()
    };
    let mut offsets = Vec::with_capacity(meshes.len());
    let mut next = Offsets {
        position: 1,
        uv: 1,
        normal: 1,
    };
    for mesh in &meshes {
        offsets.push(next);
        next.position += mesh.positions.len() as u64;
        next.uv += mesh
            .uvs
            .as_ref()
            .filter(|_| options.uvs)
            .map_or(0, |v| v.len()) as u64;
        next.normal += mesh
            .normals
            .as_ref()
            .filter(|_| options.normals)
            .map_or(0, |v| v.len()) as u64;
    }
    let chunks = plan(&meshes, options);
    let jobs = group(&chunks, options.chunk_size);
    let total: u64 = chunks.iter().map(|c| c.elements()).sum();
    let mut summary = WriteSummary {
        objects: meshes.len() as u64,
        vertices: meshes.iter().map(|m| m.positions.len() as u64).sum(),
        faces: meshes.iter().map(|m| m.face_count() as u64).sum(),
        threads: pipeline.threads(),
        bytes: 0,
    };
    // Blocks reach the sink in job order, so the n-th block is job n.
    let (mut done, mut written) = (0, 0);
    let meshes = &meshes;
    let offsets = &offsets;
    let chunks = &chunks;
    pipeline.run(
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
    )?;
    out.flush()?;
    Ok(summary)
}

/// Consecutive chunks grouped into jobs of at least `size` elements, so that
/// thousands of small objects cost as little per element as one big one.
fn group(chunks: &[Chunk], size: usize) -> Vec<std::ops::Range<usize>> {
    let mut jobs = Vec::new();
    let (mut start, mut weight) = (0, 0);
    for (i, chunk) in chunks.iter().enumerate() {
        // Statements without elements (`o`, the header) still cost a little.
        weight += chunk.elements() as usize + 1;
        if weight >= size {
            jobs.push(start..i + 1);
            (start, weight) = (i + 1, 0);
        }
    }
    if start < chunks.len() {
        jobs.push(start..chunks.len());
    }
    jobs
}

/// The chunks of the whole file, in output order.
fn plan(meshes: &[Cow<Mesh>], options: &WriteOptions) -> Vec<Chunk> {
    let size = options.chunk_size;
    let mut chunks = vec![Chunk::Header];
    let ranges =
        |len: usize| (0..len.div_ceil(size)).map(move |i| (i * size, ((i + 1) * size).min(len)));
    for (m, mesh) in meshes.iter().enumerate() {
        chunks.push(Chunk::Object { m });
        chunks.extend(
            ranges(mesh.positions.len()).map(|(start, end)| Chunk::Positions { m, start, end }),
        );
        if options.normals
            && let Some(normals) = &mesh.normals
        {
            chunks.extend(ranges(normals.len()).map(|(start, end)| Chunk::Normals {
                m,
                start,
                end,
            }));
        }
        if options.uvs
            && let Some(uvs) = &mesh.uvs
        {
            chunks.extend(ranges(uvs.len()).map(|(start, end)| Chunk::Uvs { m, start, end }));
        }
        chunks.extend(ranges(mesh.face_count()).map(|(start, end)| Chunk::Faces { m, start, end }));
        if let Some(edges) = &mesh.edges {
            chunks.extend(ranges(edges.len()).map(|(start, end)| Chunk::Edges { m, start, end }));
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
            out.extend_from_slice(b"o ");
            out.extend_from_slice(meshes[m].name.as_bytes());
            out.push(b'\n');
        }
        Chunk::Positions { m, start, end } => {
            let mesh = &meshes[m];
            let colors = mesh.colors.as_deref().filter(|_| options.colors);
            out.reserve((end - start) * if colors.is_some() { 64 } else { 32 });
            for i in start..end {
                out.extend_from_slice(b"v");
                for x in mesh.positions[i] {
                    out.push(b' ');
                    write_float(out, x, options.precision);
                }
                if let Some(colors) = colors {
                    for x in colors[i] {
                        out.push(b' ');
                        write_float(out, x, options.precision);
                    }
                }
                out.push(b'\n');
            }
        }
        Chunk::Normals { m, start, end } => {
            let normals = meshes[m].normals.as_deref().unwrap_or_default();
            out.reserve((end - start) * 24);
            for normal in &normals[start..end] {
                out.extend_from_slice(b"vn");
                for &x in normal {
                    out.push(b' ');
                    write_float(out, x, options.normal_precision);
                }
                out.push(b'\n');
            }
        }
        Chunk::Uvs { m, start, end } => {
            let uvs = meshes[m].uvs.as_deref().unwrap_or_default();
            out.reserve((end - start) * 22);
            for uv in &uvs[start..end] {
                out.extend_from_slice(b"vt");
                for &x in uv {
                    out.push(b' ');
                    write_float(out, x, options.uv_precision);
                }
                out.push(b'\n');
            }
        }
        Chunk::Faces { m, start, end } => {
            encode_faces(&meshes[m], offsets[m], options, start, end, out)
        }
        Chunk::Edges { m, start, end } => {
            let edges = meshes[m].edges.as_deref().unwrap_or_default();
            let base = offsets[m].position;
            for edge in &edges[start..end] {
                out.extend_from_slice(b"l ");
                numfmt::write_u64(out, base + u64::from(edge[0]));
                out.push(b' ');
                numfmt::write_u64(out, base + u64::from(edge[1]));
                out.push(b'\n');
            }
        }
    }
}

/// Faces `start..end` of `mesh`, with `s` and `usemtl` where the group or the
/// material differs from the previous face's (always at the mesh's first face).
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
    let materials = mesh
        .material_indices
        .as_deref()
        .filter(|_| options.materials);
    let offsets = &mesh.face_offsets;
    out.reserve((offsets[end] - offsets[start]) as usize * 20 + (end - start) * 4);
    for face in start..end {
        if let Some(smooth) = smooth
            && (face == 0 || smooth[face] != smooth[face - 1])
        {
            out.extend_from_slice(b"s ");
            numfmt::write_u32(out, smooth[face]);
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
