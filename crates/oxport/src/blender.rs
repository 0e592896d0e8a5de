//! What Blender 3.4's OBJ exporter computes before it writes, reproduced bit
//! for bit, so that meshes gathered from Blender's Python API come out as the
//! same bytes: the float32 arithmetic of its matrix code (same operations in
//! the same order), its rounding of normals to four digits, its merging of
//! normals and of UVs, its face order.
//!
//! Matrices are in Blender's layout: `m[column][row]`, as `Object.matrix_world`
//! transposed.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rayon::prelude::*;

use crate::mesh::Mesh;
use crate::{Error, Result};

/// A 4×4 float matrix in Blender's layout (`m[column][row]`).
pub type Matrix4 = [[f32; 4]; 4];
/// A 3×3 float matrix in Blender's layout (`m[column][row]`).
pub type Matrix3 = [[f32; 3]; 3];

/// Blender's `mul_m4_m3m4` for the 3×3 block, then `mul_v3_m3v3` for the
/// translation: the axis conversion `axes` applied to the world matrix.
pub fn world_and_axes_transform(axes: &Matrix3, world: &Matrix4) -> Matrix4 {
    let (a, b) = (axes, world);
    let mut r = [[0.0f32; 4]; 4];
    for i in 0..3 {
        for j in 0..3 {
            r[i][j] = b[i][0] * a[0][j] + b[i][1] * a[1][j] + b[i][2] * a[2][j];
        }
    }
    let t = [b[3][0], b[3][1], b[3][2]];
    for j in 0..3 {
        r[3][j] = a[0][j] * t[0] + a[1][j] * t[1] + a[2][j] * t[2];
    }
    r[3][3] = b[3][3];
    r
}

/// The inverse transpose of the 3×3 block (`copy_m3_m4`, `invert_m3_m3`,
/// `transpose_m3`): what normals are multiplied by.
pub fn normal_transform(m: &Matrix4) -> Matrix3 {
    let m3: Matrix3 = [
        [m[0][0], m[0][1], m[0][2]],
        [m[1][0], m[1][1], m[1][2]],
        [m[2][0], m[2][1], m[2][2]],
    ];
    let mut inverse = adjoint(&m3);
    let det = determinant(&m3);
    if det != 0.0 {
        let scale = 1.0f32 / det;
        for row in &mut inverse {
            for x in row {
                *x *= scale;
            }
        }
    }
    let mut t = inverse;
    for i in 0..3 {
        for j in 0..3 {
            t[i][j] = inverse[j][i];
        }
    }
    t
}

fn adjoint(m: &Matrix3) -> Matrix3 {
    [
        [
            m[1][1] * m[2][2] - m[1][2] * m[2][1],
            -m[0][1] * m[2][2] + m[0][2] * m[2][1],
            m[0][1] * m[1][2] - m[0][2] * m[1][1],
        ],
        [
            -m[1][0] * m[2][2] + m[1][2] * m[2][0],
            m[0][0] * m[2][2] - m[0][2] * m[2][0],
            -m[0][0] * m[1][2] + m[0][2] * m[1][0],
        ],
        [
            m[1][0] * m[2][1] - m[1][1] * m[2][0],
            -m[0][0] * m[2][1] + m[0][1] * m[2][0],
            m[0][0] * m[1][1] - m[0][1] * m[1][0],
        ],
    ]
}

fn determinant(m: &Matrix3) -> f32 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[1][0] * (m[0][1] * m[2][2] - m[0][2] * m[2][1])
        + m[2][0] * (m[0][1] * m[1][2] - m[0][2] * m[1][1])
}

/// `mul_m4_v3` then `mul_v3_fl(scale)` on every position.
pub fn transform_positions(positions: &[[f32; 3]], m: &Matrix4, scale: f32) -> Vec<[f32; 3]> {
    positions
        .iter()
        .map(|&[x, y, z]| {
            [
                (x * m[0][0] + y * m[1][0] + m[2][0] * z + m[3][0]) * scale,
                (x * m[0][1] + y * m[1][1] + m[2][1] * z + m[3][1]) * scale,
                (x * m[0][2] + y * m[1][2] + m[2][2] * z + m[3][2]) * scale,
            ]
        })
        .collect()
}

/// `mul_m3_v3` then `normalize_v3`.
fn transform_normal(m: &Matrix3, [x, y, z]: [f32; 3]) -> [f32; 3] {
    let v = [
        m[0][0] * x + m[1][0] * y + m[2][0] * z,
        m[0][1] * x + m[1][1] * y + m[2][1] * z,
        m[0][2] * x + m[1][2] * y + m[2][2] * z,
    ];
    normalize(v).unwrap_or([0.0; 3])
}

/// Blender's `normalize_v3`: multiplied by the reciprocal of the length;
/// `None` for a vector too short to normalize (Blender then zeroes it).
fn normalize(v: [f32; 3]) -> Option<[f32; 3]> {
    let d = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    (d > 1.0e-35).then(|| {
        let inv = 1.0f32 / d.sqrt();
        [v[0] * inv, v[1] * inv, v[2] * inv]
    })
}

/// Blender's `round_float_to_n_digits(f, 4)`: `ceilf(10000 f - 0.49999999f) / 10000`
/// in float arithmetic (zero comes out as -0, printed `-0.0000`).
fn round_4_digits(f: f32) -> f32 {
    let scale = 10_000.0f32;
    // Blender writes 0.49999999f, which is 0.5 as a float.
    ceil(scale * f - 0.5) / scale
}

/// `ceilf`, inline (x86-64's baseline has no rounding instruction, and the
/// libm call dominated), with its signed zeros: `ceil(-0.5)` is -0.
fn ceil(v: f32) -> f32 {
    if v.is_nan() || v.abs() >= 8_388_608.0 {
        return v; // already an integer, or infinite, or NaN
    }
    let t = v as i32 as f32;
    let c = if t < v { t + 1.0 } else { t };
    if c == 0.0 && v.is_sign_negative() {
        -0.0
    } else {
        c
    }
}

/// Where the corner normals come from.
#[derive(Clone, Copy, Debug)]
pub enum NormalSource<'a> {
    /// `loops[].normal` after `calc_normals_split()`: one per corner.
    Corners(&'a [[f32; 3]]),
    /// `vertices[].normal`, for a mesh without auto smooth or custom normals:
    /// Blender's split normals are then the vertex normals on smooth faces (the
    /// same floats) and the face normals on flat ones. [`corner_normals`] takes
    /// it only when every face is smooth; [`mesh`] computes the flat faces'
    /// normals as Blender caches them ([`face_normal`]; `polygons[].normal`
    /// computes triangles and quads another way and differs in the last bits).
    Vertices(&'a [[f32; 3]]),
}

/// A face's normal as Blender 3.4 caches it next to the vertex normals
/// (`mesh_calc_normals_poly_and_vertex`): Newell's method over the face's
/// corners, whatever its size, in float arithmetic, then `normalize_v3`
/// (multiplying by the reciprocal of the length); (0, 0, 1) for a degenerate face.
pub fn face_normal(positions: &[[f32; 3]], corner_vertices: &[u32]) -> [f32; 3] {
    let Some(&last) = corner_vertices.last() else {
        return [0.0, 0.0, 1.0];
    };
    let mut n = [0.0f32; 3];
    let mut previous = positions[last as usize];
    for &v in corner_vertices {
        let current = positions[v as usize];
        n[0] += (previous[1] - current[1]) * (previous[2] + current[2]);
        n[1] += (previous[2] - current[2]) * (previous[0] + current[0]);
        n[2] += (previous[0] - current[0]) * (previous[1] + current[1]);
        previous = current;
    }
    normalize(n).unwrap_or([0.0, 0.0, 1.0])
}

/// A rounded normal as a key with float equality (-0 equals +0): the three
/// components are multiples of 1/10000, so the integers `10000 x` (exact up
/// to a rounding error far below 1/2) identify them, 21 bits each.
fn normal_key(n: [f32; 3]) -> u64 {
    let q = n.map(|x| {
        let scaled = x * 10_000.0;
        // Round half away from zero without a libm call; NaN becomes 0.
        let q = (scaled + if scaled < 0.0 { -0.5 } else { 0.5 }) as i64;
        (q + (1 << 20)) as u64 & 0x1f_ffff
    });
    q[0] | q[1] << 21 | q[2] << 42
}

/// Normals transformed and rounded, with their keys: one per corner, or a
/// table and each corner's entry in it.
enum Rounded {
    PerCorner(Vec<([f32; 3], u64)>),
    PerVertex(Vec<([f32; 3], u64)>),
    Indexed {
        table: Vec<([f32; 3], u64)>,
        index: Vec<u32>,
    },
}

fn round_all(values: &[[f32; 3]], normal_matrix: &Matrix3) -> Vec<([f32; 3], u64)> {
    values
        .par_iter()
        .with_min_len(4096)
        .map(|&n| {
            let n = transform_normal(normal_matrix, n).map(round_4_digits);
            (n, normal_key(n))
        })
        .collect()
}

/// Corner normals as the exporter writes them: each transformed by
/// `normal_matrix`, normalized, rounded to four digits, merged with equal ones
/// in first-appearance order (corner order). Returns the normals and one index
/// per corner.
pub fn corner_normals(
    source: NormalSource,
    corner_vertices: &[u32],
    smooth: Option<&[u32]>,
    vertex_count: usize,
    normal_matrix: &Matrix3,
) -> Result<(Vec<[f32; 3]>, Vec<u32>)> {
    let rounded = match source {
        NormalSource::Corners(normals) => {
            if normals.len() != corner_vertices.len() {
                return Err(Error::invalid(format!(
                    "{} corner normals for {} corners",
                    normals.len(),
                    corner_vertices.len()
                )));
            }
            Rounded::PerCorner(round_all(normals, normal_matrix))
        }
        NormalSource::Vertices(vertices) => {
            if vertices.len() != vertex_count {
                return Err(Error::invalid(format!(
                    "{} vertex normals for {vertex_count} vertices",
                    vertices.len()
                )));
            }
            if smooth.is_some_and(|s| s.contains(&0)) {
                return Err(Error::invalid(
                    "vertex normals stand for corner normals only when every face is smooth",
                ));
            }
            Rounded::PerVertex(round_all(vertices, normal_matrix))
        }
    };
    Ok(merge_normals(rounded, corner_vertices, vertex_count))
}

/// The corner normals of a mesh without auto smooth or custom normals, from
/// its vertex normals: Blender's split normals are the vertex normals on
/// smooth faces and [`face_normal`] on flat ones. Each vertex and each flat
/// face is transformed and rounded once, not each corner.
fn mixed_corner_normals(
    vertex_normals: &[[f32; 3]],
    positions: &[[f32; 3]],
    corner_vertices: &[u32],
    face_offsets: &[u32],
    smooth: &[u32],
    normal_matrix: &Matrix3,
) -> (Vec<[f32; 3]>, Vec<u32>) {
    let vertex_count = vertex_normals.len();
    let flat: Vec<u32> = (0..smooth.len() as u32)
        .filter(|&f| smooth[f as usize] == 0)
        .collect();
    let face_normals: Vec<[f32; 3]> = flat
        .par_iter()
        .with_min_len(1024)
        .map(|&f| {
            let range = face_offsets[f as usize] as usize..face_offsets[f as usize + 1] as usize;
            face_normal(positions, &corner_vertices[range])
        })
        .collect();
    let mut table = round_all(vertex_normals, normal_matrix);
    table.extend(round_all(&face_normals, normal_matrix));
    // Corner c's entry: its vertex's, or (on a flat face) its face's after the vertices.
    let mut index = Vec::with_capacity(corner_vertices.len());
    let mut flat_faces = flat.iter().peekable();
    let mut next_flat = 0u32;
    for f in 0..smooth.len() {
        let corners = face_offsets[f] as usize..face_offsets[f + 1] as usize;
        if flat_faces.next_if(|&&g| g as usize == f).is_some() {
            // Fits: mesh() refuses meshes whose vertices and faces exceed u32.
            let entry = vertex_count as u32 + next_flat;
            next_flat += 1;
            index.extend(std::iter::repeat_n(entry, corners.len()));
        } else {
            index.extend_from_slice(&corner_vertices[corners]);
        }
    }
    merge_normals(
        Rounded::Indexed { table, index },
        corner_vertices,
        vertex_count,
    )
}

/// Merges rounded normals with equal ones in first-appearance (corner) order.
///
/// The corners around a smooth vertex usually share its normal, and those of
/// a flat face share the face's, so each vertex remembers the index its last
/// corner got and the previous corner's is kept too: the hash table, whose
/// lookups miss the cache, is asked only when both differ.
fn merge_normals(
    rounded: Rounded,
    corner_vertices: &[u32],
    vertex_count: usize,
) -> (Vec<[f32; 3]>, Vec<u32>) {
    // Vertex normals are merged a vertex at a time; the others a corner at a time.
    let by_vertex = match &rounded {
        Rounded::PerVertex(values) => Some(values.as_slice()),
        _ => None,
    };
    let corner_value = |i: usize| match &rounded {
        Rounded::PerCorner(values) => values[i],
        Rounded::Indexed { table, index } => table[index[i] as usize],
        Rounded::PerVertex(values) => values[corner_vertices[i] as usize],
    };
    // What the merging walks, in corner order: every corner for corner
    // normals; for vertex normals each vertex once, at its first corner (the
    // later corners of a vertex find its normal already merged).
    let corners = corner_vertices.len();
    let vertex_order: Vec<u32> = if by_vertex.is_some() {
        let mut seen = vec![false; vertex_count];
        let mut order = Vec::with_capacity(vertex_count);
        for (c, &v) in corner_vertices.iter().enumerate() {
            if !std::mem::replace(&mut seen[v as usize], true) {
                order.push(c as u32);
            }
        }
        order
    } else {
        Vec::new()
    };
    let (items, slots) = if by_vertex.is_some() {
        (vertex_order.len(), vertex_count)
    } else {
        (corners, corners)
    };
    // Item i: (its slot, its first corner, its vertex, its normal and key).
    let item = |i: usize| {
        if let Some(values) = by_vertex {
            let c = vertex_order[i] as usize;
            let v = corner_vertices[c] as usize;
            (v, c, v, values[v])
        } else {
            let v = corner_vertices[i] as usize;
            (i, i, v, corner_value(i))
        }
    };
    // Hash table lookups miss the cache, so they are spread over the threads:
    // thread p owns the keys whose hash falls in part p, walks every item in
    // order and merges only its own keys. Each part's normals come out in
    // first-appearance order; merging the parts by first corner gives the
    // global order. A slot's code is `local index * parts + part`.
    // One part for small meshes (threads cost more than they save there), and
    // for huge ones (codes must fit in 32 bits).
    let parts = if items < 1 << 16 || slots >= 1 << 28 {
        1
    } else {
        rayon::current_num_threads().clamp(1, 8)
    };
    let part_of =
        |key: u64| ((key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) % parts as u64) as usize;
    let cache = if by_vertex.is_some() { 0 } else { vertex_count };
    let per_corner = |slot_indices: Vec<u32>| -> Vec<u32> {
        match by_vertex {
            Some(_) => corner_vertices
                .par_iter()
                .with_min_len(4096)
                .map(|&v| slot_indices[v as usize])
                .collect(),
            None => slot_indices,
        }
    };
    if parts == 1 {
        // One part's order is the global order: its indices are final.
        let mut slot_indices = vec![0u32; slots];
        let (normals, _) = merge_items(
            items,
            &item,
            cache,
            vertex_count,
            |_| true,
            |slot, index| slot_indices[slot] = index,
        );
        return (normals, per_corner(slot_indices));
    }
    let codes: Vec<std::sync::atomic::AtomicU32> = (0..slots).map(|_| Default::default()).collect();
    let merged: Vec<(Vec<[f32; 3]>, Vec<u32>)> = (0..parts)
        .into_par_iter()
        .map(|part| {
            let mine = |key| part_of(key) == part;
            merge_items(
                items,
                &item,
                cache,
                vertex_count / parts,
                mine,
                |slot, index| {
                    codes[slot].store(
                        index * parts as u32 + part as u32,
                        std::sync::atomic::Ordering::Relaxed,
                    )
                },
            )
        })
        .collect();
    let mut order: Vec<(u32, u32)> = merged
        .iter()
        .enumerate()
        .flat_map(|(part, (_, firsts))| {
            firsts
                .iter()
                .enumerate()
                .map(move |(local, &first)| (first, (local * parts + part) as u32))
        })
        .collect();
    order.par_sort_unstable();
    let longest = merged
        .iter()
        .map(|(normals, _)| normals.len())
        .max()
        .unwrap_or(0);
    let mut global = vec![0u32; longest * parts];
    let mut normals = Vec::with_capacity(order.len());
    for (index, &(_, code)) in order.iter().enumerate() {
        let (local, part) = (code as usize / parts, code as usize % parts);
        global[code as usize] = index as u32;
        normals.push(merged[part].0[local]);
    }
    let slot_indices: Vec<u32> = codes
        .into_par_iter()
        .with_min_len(4096)
        .map(|code| global[code.into_inner() as usize])
        .collect();
    (normals, per_corner(slot_indices))
}

/// Merges the items whose key `mine` accepts, in order: returns their normals
/// in first-appearance order with each one's first corner, and calls
/// `store(slot, index)` for each item. `item(i)` is (slot, first corner,
/// vertex, (normal, key)).
///
/// The corners of a smooth vertex usually share its normal, those of a flat
/// face the face's: the last index of each vertex (`cache` vertices; 0 for
/// none) and the previous item's are remembered, and the hash table, whose
/// lookups miss the cache, is asked only when both differ.
fn merge_items(
    items: usize,
    item: &impl Fn(usize) -> (usize, usize, usize, ([f32; 3], u64)),
    cache: usize,
    capacity: usize,
    mine: impl Fn(u64) -> bool,
    mut store: impl FnMut(usize, u32),
) -> (Vec<[f32; 3]>, Vec<u32>) {
    let mut index_of: HashMap<u64, u32, BuildHasherDefault<KeyHasher>> =
        HashMap::with_capacity_and_hasher(capacity, Default::default());
    let (mut normals, mut firsts, mut keys) = (Vec::new(), Vec::new(), Vec::new());
    let mut last = vec![u32::MAX; cache];
    let (mut previous_key, mut previous_index) = (u64::MAX, 0u32);
    for i in 0..items {
        let (slot, first, v, (n, key)) = item(i);
        if !mine(key) {
            continue;
        }
        let cached = last.get(v).copied().unwrap_or(u32::MAX);
        let index = if key == previous_key {
            previous_index
        } else if cached != u32::MAX && keys[cached as usize] == key {
            cached
        } else {
            *index_of.entry(key).or_insert_with(|| {
                normals.push(n);
                keys.push(key);
                firsts.push(first as u32);
                normals.len() as u32 - 1
            })
        };
        if let Some(entry) = last.get_mut(v) {
            *entry = index;
        }
        (previous_key, previous_index) = (key, index);
        store(slot, index);
    }
    (normals, firsts)
}

/// A fast hash for keys that are bit patterns of floats (FxHash's mixing):
/// the default SipHash costs more than the rest of the merging.
#[derive(Default)]
struct KeyHasher(u64);

impl KeyHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.add(value);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Blender's `STD_UV_CONNECT_LIMIT`.
pub const UV_CONNECT_LIMIT: f32 = 0.0001;

/// UVs merged as Blender 3.4's exporter merges them (`BKE_mesh_uv_vert_map_create`
/// with a limit of 0.0001, then numbered vertex by vertex): per vertex, the
/// corners using it are grouped with the first remaining corner whose UV is
/// within the limit on both axes; each group is one UV, numbered in reverse
/// order of grouping, with the UV of the corner that started the group.
///
/// `corner_vertices[c]` is the vertex of corner `c`; faces are
/// `face_offsets[f]..face_offsets[f + 1]`. Returns the UVs and one index per corner.
pub fn uv_vertex_map(
    uvs: &[[f32; 2]],
    corner_vertices: &[u32],
    face_offsets: &[u32],
    vertex_count: usize,
) -> (Vec<[f32; 2]>, Vec<u32>) {
    let corners = corner_vertices.len();
    // Blender pushes every corner at the front of its vertex's list while
    // walking faces in order, so each list runs from the last corner to the
    // first: counting sort by vertex, then reversed within each vertex.
    let mut start = vec![0u32; vertex_count + 1];
    for &v in corner_vertices {
        start[v as usize + 1] += 1;
    }
    for v in 0..vertex_count {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut by_vertex = vec![0u32; corners];
    // Corners in face order: faces may not cover the corner array in order.
    for face in face_offsets.windows(2) {
        for c in face[0]..face[1] {
            let v = corner_vertices[c as usize] as usize;
            by_vertex[fill[v] as usize] = c;
            fill[v] += 1;
        }
    }
    let mut out_uvs = Vec::with_capacity(vertex_count);
    let mut out_indices = vec![0u32; corners];
    let mut pending: Vec<u32> = Vec::new();
    // The groups of one vertex, one after the other; `ends[g]` closes group g.
    let mut grouped: Vec<u32> = Vec::new();
    let mut ends: Vec<usize> = Vec::new();
    for v in 0..vertex_count {
        pending.clear();
        pending.extend(
            by_vertex[start[v] as usize..start[v + 1] as usize]
                .iter()
                .rev(),
        );
        grouped.clear();
        ends.clear();
        let mut rest = 0;
        // `pending[rest..]` is Blender's remaining list, in list order.
        while rest < pending.len() {
            let seed = pending[rest];
            rest += 1;
            let uv = uvs[seed as usize];
            grouped.push(seed);
            let mut kept = rest;
            for k in rest..pending.len() {
                let c = pending[k];
                let other = uvs[c as usize];
                if (uv[0] - other[0]).abs() < UV_CONNECT_LIMIT
                    && (uv[1] - other[1]).abs() < UV_CONNECT_LIMIT
                {
                    grouped.push(c);
                } else {
                    pending[kept] = c;
                    kept += 1;
                }
            }
            pending.truncate(kept);
            ends.push(grouped.len());
        }
        // The final list holds the groups last-made first; the exporter gives
        // each group the next index and keeps the UV of its seed.
        for g in (0..ends.len()).rev() {
            let group = &grouped[if g == 0 { 0 } else { ends[g - 1] }..ends[g]];
            let index = out_uvs.len() as u32;
            out_uvs.push(uvs[group[0] as usize]);
            for &c in group {
                out_indices[c as usize] = index;
            }
        }
    }
    (out_uvs, out_indices)
}

/// The exporter's face order: by material index, then by face index. `None`
/// when the faces are already in that order.
pub fn face_order(material_indices: &[u32]) -> Option<Vec<u32>> {
    if material_indices.windows(2).all(|w| w[0] <= w[1]) {
        return None;
    }
    let mut order: Vec<u32> = (0..material_indices.len() as u32).collect();
    order.sort_by_key(|&f| (material_indices[f as usize], f));
    Some(order)
}

/// One evaluated Blender mesh as its Python API gives it (`foreach_get`).
#[derive(Clone, Debug, Default)]
pub struct Gathered<'a> {
    pub name: String,
    /// [`world_and_axes_transform`] of the object.
    pub transform: Option<Matrix4>,
    /// The exporter's `global_scale`.
    pub scale: f32,
    /// `vertices[].co`
    pub positions: &'a [[f32; 3]],
    /// `loops[].vertex_index`
    pub corner_vertices: &'a [u32],
    /// `polygons[].loop_start`
    pub face_starts: &'a [u32],
    /// The normals, when they are exported.
    pub normals: Option<NormalSource<'a>>,
    /// The active UV layer's `data[].uv`, when UVs are exported.
    pub corner_uvs: Option<&'a [[f32; 2]]>,
    /// Smooth group per face (`polygons[].use_smooth` as 0 or 1 without smooth groups).
    pub smooth: Option<&'a [u32]>,
    /// `polygons[].material_index` with the material names of the slots, when
    /// materials are exported (an empty name for an empty slot; indices past
    /// the slots get one too).
    pub material_indices: Option<&'a [u32]>,
    pub materials: Vec<String>,
    /// Loose edges, as the two vertices to write.
    pub edges: Option<&'a [[u32; 2]]>,
    /// Smooth groups instead of 0/1 for `s` lines (`export_smooth_groups`):
    /// computed from `loops[].edge_index` and `edges[].use_edge_sharp`, as
    /// powers of two when `bitflags` (`smooth_group_bitflags`).
    pub smooth_groups: Option<SmoothGroupInput<'a>>,
    /// Material groups (`export_material_groups`): `g OBJECT_MATERIAL` before
    /// each `usemtl`, with this object name.
    pub material_groups: Option<String>,
    /// Vertex groups (`export_vertex_groups`): `g NAME` where a face's group
    /// changes, the group of most weight over the face's corners, or `off`.
    pub vertex_groups: Option<VertexGroupInput<'a>>,
    /// The active color attribute on the face corner domain (float colors),
    /// linear RGBA: averaged per vertex as Blender's attribute domain
    /// interpolation averages them.
    pub corner_colors: Option<&'a [[f32; 4]]>,
    /// The active color attribute on the face corner domain (byte colors), as
    /// `data[].color_srgb` gives it (bytes / 255): the bytes are averaged per
    /// vertex (truncated, as Blender's byte color mixing does), then decoded.
    pub corner_colors_srgb8: Option<&'a [[f32; 4]]>,
    /// The active color attribute on the point domain, linear RGBA
    /// (`color_attributes.active_color.data[].color`), when colors are exported.
    pub vertex_colors: Option<&'a [[f32; 4]]>,
}

/// The vertex groups of an object and the weights of a mesh's vertices.
#[derive(Clone, Debug, Default)]
pub struct VertexGroupInput<'a> {
    /// `Object.vertex_groups[].name`
    pub names: Vec<String>,
    /// Vertex `v`'s weights are entries `offsets[v]..offsets[v + 1]`.
    pub offsets: &'a [u32],
    /// `vertices[v].groups[].group`, flattened.
    pub groups: &'a [u32],
    /// `vertices[v].groups[].weight`, flattened.
    pub weights: &'a [f32],
}

/// Each face's vertex group as Blender 3.4 writes it: the weights of its
/// corners' vertices summed per group in corner order (float additions), the
/// group with the most (the first of equals); `None` when no corner's vertex
/// is in a group. Returns group indices into `names`, with `names.len()` for none.
pub fn face_vertex_groups(
    face_offsets: &[u32],
    corner_vertices: &[u32],
    input: &VertexGroupInput,
) -> Result<Vec<u32>> {
    let vertices = input.offsets.len().saturating_sub(1);
    if input.groups.len() != input.weights.len()
        || input.offsets.first().is_some_and(|&o| o != 0)
        || input.offsets.windows(2).any(|w| w[0] > w[1])
        || input
            .offsets
            .last()
            .is_some_and(|&o| o as usize != input.groups.len())
    {
        return Err(Error::invalid(
            "vertex group offsets, groups and weights do not agree",
        ));
    }
    let count = input.names.len();
    let none = count as u32;
    let mut sums = vec![0.0f32; count];
    let mut faces = Vec::with_capacity(face_offsets.len().saturating_sub(1));
    for face in face_offsets.windows(2) {
        sums.fill(0.0);
        let mut found = false;
        for &v in &corner_vertices[face[0] as usize..face[1] as usize] {
            if v as usize >= vertices {
                return Err(Error::invalid(format!(
                    "vertex {v} has no vertex group entry ({vertices} vertices)"
                )));
            }
            let range = input.offsets[v as usize] as usize..input.offsets[v as usize + 1] as usize;
            for (&group, &weight) in input.groups[range.clone()]
                .iter()
                .zip(&input.weights[range])
            {
                if let Some(sum) = sums.get_mut(group as usize) {
                    *sum += weight;
                    found = true;
                }
            }
        }
        // std::max_element: a later group wins only with strictly more.
        let mut best = 0;
        for g in 1..count {
            if sums[best] < sums[g] {
                best = g;
            }
        }
        faces.push(if found { best as u32 } else { none });
    }
    Ok(faces)
}

/// What smooth groups are computed from.
#[derive(Clone, Copy, Debug)]
pub struct SmoothGroupInput<'a> {
    /// `loops[].edge_index`
    pub corner_edges: &'a [u32],
    /// `edges[].use_edge_sharp`, one per edge (nonzero: sharp).
    pub sharp_edges: &'a [u32],
    /// Groups as bits (1, 2, 4...), neighbours never sharing one.
    pub bitflags: bool,
}

/// Blender's smooth groups (`BKE_mesh_calc_smoothgroups`): faces are flooded,
/// lowest unvisited face first, across edges used by exactly two faces, both
/// smooth, the edge not sharp. Without `bitflags` groups are numbered 1, 2...
/// in that order; with it, each group takes the lowest bit that no group next
/// to it (across a boundary edge) already has, or 0 when all 32 are taken.
/// Flat faces get groups too (Blender writes `s 0` for them).
pub fn smooth_groups(
    face_offsets: &[u32],
    smooth: &[u32],
    input: &SmoothGroupInput,
) -> Result<Vec<u32>> {
    let edge_count = input.sharp_edges.len();
    let faces = smooth.len();
    // Faces of each edge, in face order (a face using an edge twice is there twice).
    let mut uses = vec![0u32; edge_count + 1];
    for (corner, &e) in input.corner_edges.iter().enumerate() {
        if e as usize >= edge_count {
            return Err(Error::invalid(format!(
                "loop {corner} uses edge {e} of {edge_count}"
            )));
        }
        uses[e as usize + 1] += 1;
    }
    for e in 0..edge_count {
        uses[e + 1] += uses[e];
    }
    let mut fill = uses.clone();
    let mut edge_faces = vec![0u32; input.corner_edges.len()];
    for f in 0..faces {
        for c in face_offsets[f]..face_offsets[f + 1] {
            let e = input.corner_edges[c as usize] as usize;
            edge_faces[fill[e] as usize] = f as u32;
            fill[e] += 1;
        }
    }
    let faces_of = |e: usize| &edge_faces[uses[e] as usize..uses[e + 1] as usize];
    // An edge bounds a group unless both its (two) faces are smooth and it is not sharp.
    let boundary = |f: usize, e: usize| {
        let users = faces_of(e);
        if smooth[f] == 0 || input.sharp_edges[e] != 0 || users.len() != 2 {
            return true;
        }
        let other = if users[0] as usize == f {
            users[1]
        } else {
            users[0]
        };
        smooth[other as usize] == 0
    };
    const PENDING: u32 = 3; // Blender's placeholders: not powers of two
    const OVERFLOW: u32 = 5;
    let mut groups = vec![0u32; faces];
    let mut stack: Vec<u32> = Vec::with_capacity(faces);
    let (mut next_group, mut start, mut overflowed) = (0u32, 0usize, false);
    while let Some(seed) = (start..faces).find(|&f| groups[f] == 0) {
        start = seed + 1;
        let id = if input.bitflags {
            PENDING
        } else {
            next_group += 1;
            next_group
        };
        groups[seed] = id;
        stack.clear();
        stack.push(seed as u32);
        let (mut current, mut taken) = (0, 0u32);
        while current < stack.len() {
            let f = stack[current] as usize;
            current += 1;
            for c in face_offsets[f]..face_offsets[f + 1] {
                let e = input.corner_edges[c as usize] as usize;
                if !boundary(f, e) {
                    for &g in faces_of(e) {
                        if groups[g as usize] == 0 {
                            groups[g as usize] = id;
                            stack.push(g);
                        }
                    }
                } else if input.bitflags {
                    for &g in faces_of(e) {
                        let bit = groups[g as usize];
                        if ![0, id, OVERFLOW].contains(&bit) {
                            taken |= bit;
                        }
                    }
                }
            }
        }
        if input.bitflags {
            let bit = (0..32).find(|b| taken & (1u32 << b) == 0);
            let group = match bit {
                Some(b) => 1u32 << b,
                None => {
                    overflowed = true;
                    OVERFLOW
                }
            };
            for &f in &stack {
                groups[f as usize] = group;
            }
        }
    }
    if overflowed {
        for g in &mut groups {
            if *g == OVERFLOW {
                *g = 0;
            }
        }
    }
    Ok(groups)
}

/// Blender's `srgb_to_linearrgb` (scalar, with `powf`), from which its table
/// for byte colors is made.
pub fn srgb_to_linear(c: f32) -> f32 {
    if c < 0.04045 {
        if c < 0.0 { 0.0 } else { c * (1.0 / 12.92) }
    } else {
        ((c + 0.055) * (1.0 / 1.055)).powf(2.4)
    }
}

/// Corner colors averaged per vertex as Blender 3.4 does when it reads a
/// corner color attribute on points: float colors summed in corner order and
/// multiplied by the reciprocal of the count; byte colors the same on the
/// bytes, truncated back to bytes, then decoded. Linear RGB per vertex;
/// vertices no corner uses are black.
pub fn corner_colors_to_vertices(
    corner_vertices: &[u32],
    vertex_count: usize,
    colors: &[[f32; 4]],
    srgb_bytes: bool,
) -> Vec<[f32; 4]> {
    let mut sums = vec![[0.0f32; 4]; vertex_count];
    let mut counts = vec![0.0f32; vertex_count];
    for (&v, color) in corner_vertices.iter().zip(colors) {
        let sum = &mut sums[v as usize];
        for k in 0..4 {
            sum[k] += if srgb_bytes {
                (color[k] * 255.0).round()
            } else {
                color[k]
            };
        }
        counts[v as usize] += 1.0;
    }
    sums.iter()
        .zip(&counts)
        .map(|(sum, &count)| {
            if count == 0.0 {
                return [0.0, 0.0, 0.0, 1.0];
            }
            let inverse = 1.0 / count;
            let mean = sum.map(|x| x * inverse);
            if srgb_bytes {
                // Back to bytes (truncated), then Blender's table for them.
                mean.map(|x| srgb_to_linear(f32::from(x as u8) * (1.0 / 255.0)))
            } else {
                mean
            }
        })
        .collect()
}

/// Blender's `linearrgb_to_srgb_v3_v3` on x86-64 builds: not `powf`, but an
/// SSE approximation of `x^(1/2.4)` (an exponent-bits first guess, then
/// Newton steps through `rsqrtps`, whose last bits depend on the processor:
/// Blender's colors do too, and these match them on the same machine).
/// Elsewhere, the exact formula with `powf`.
pub fn linear_to_srgb(rgb: [f32; 3]) -> [f32; 3] {
    #[cfg(target_arch = "x86_64")]
    {
        sse::linear_to_srgb(rgb)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        rgb.map(|c| {
            if c < 0.0031308 {
                (c * 12.92).max(0.0)
            } else {
                1.055 * c.powf(1.0 / 2.4) - 0.055
            }
        })
    }
}

#[cfg(target_arch = "x86_64")]
mod sse {
    // SSE and SSE2 are part of the x86-64 baseline: these intrinsics are
    // always available on this architecture.
    use std::arch::x86_64::*;

    /// A first guess of `x^e` from the float's bits: `x` scaled by a bias,
    /// its bits read as an integer, times the exponent, back to bits.
    #[inline]
    fn guess_pow(exponent_bits: i32, bias_bits: i32, x: __m128) -> __m128 {
        unsafe {
            let scaled = _mm_mul_ps(x, _mm_castsi128_ps(_mm_set1_epi32(bias_bits)));
            let as_float = _mm_cvtepi32_ps(_mm_castps_si128(scaled));
            let times = _mm_mul_ps(as_float, _mm_castsi128_ps(_mm_set1_epi32(exponent_bits)));
            _mm_castsi128_ps(_mm_cvtps_epi32(times))
        }
    }

    /// `1/sqrt(x)`: the processor's estimate and one Newton step.
    #[inline]
    fn rsqrt(x: __m128) -> __m128 {
        unsafe {
            let r = _mm_rsqrt_ps(x);
            let half_x_r = _mm_mul_ps(_mm_mul_ps(x, _mm_set1_ps(-0.5)), r);
            _mm_add_ps(
                _mm_mul_ps(_mm_set1_ps(1.5), r),
                _mm_mul_ps(half_x_r, _mm_mul_ps(r, r)),
            )
        }
    }

    /// `x^(1/2.4)` as the fourth root of `x^(5/3)`, the mean of an over- and
    /// an under-estimate built from a guess of `x^(2/3)`.
    #[inline]
    fn pow_5_12(x: __m128) -> __m128 {
        unsafe {
            let guess = guess_pow(0x3f2a_aaab, 0x5eb5_04f3, x);
            let over = _mm_mul_ps(x, guess);
            let under = _mm_mul_ps(_mm_mul_ps(x, x), rsqrt(guess));
            // Blender's constant, to its last digit (2^(-2/3) and a bias), folded in float.
            #[allow(clippy::excessive_precision)]
            let weight = 1.0f32 / (3.0f32 * 0.629_960_524_947_437_f32) * 0.999_852_f32;
            let mut mean = _mm_mul_ps(_mm_set1_ps(weight), _mm_add_ps(over, under));
            mean = _mm_mul_ps(mean, rsqrt(mean));
            _mm_mul_ps(mean, rsqrt(mean))
        }
    }

    pub(super) fn linear_to_srgb([r, g, b]: [f32; 3]) -> [f32; 3] {
        unsafe {
            let c = _mm_setr_ps(r, g, b, 1.0);
            let low = _mm_cmplt_ps(c, _mm_set1_ps(0.0031308));
            let linear = _mm_max_ps(_mm_mul_ps(c, _mm_set1_ps(12.92)), _mm_set1_ps(0.0));
            let curve = _mm_add_ps(
                _mm_mul_ps(_mm_set1_ps(1.055), pow_5_12(c)),
                _mm_set1_ps(-0.055),
            );
            let out = _mm_or_ps(_mm_and_ps(low, linear), _mm_andnot_ps(low, curve));
            let mut lanes = [0.0f32; 4];
            _mm_storeu_ps(lanes.as_mut_ptr(), out);
            [lanes[0], lanes[1], lanes[2]]
        }
    }
}

/// The mesh Blender 3.4's exporter writes for `gathered`: positions
/// transformed, normals transformed, rounded and merged, UVs merged per
/// vertex, faces in material order.
pub fn mesh(gathered: &Gathered) -> Result<Mesh<'static>> {
    let g = gathered;
    let fail = |what: String| Err(Error::invalid(format!("object {:?}: {what}", g.name)));
    let corners = g.corner_vertices.len();
    let faces = g.face_starts.len();
    if let Some(i) = g.face_starts.windows(2).position(|w| w[0] >= w[1]) {
        return fail(format!(
            "polygon loop starts do not increase at polygon {i}"
        ));
    }
    if g.face_starts.first().is_some_and(|&s| s != 0)
        || g.face_starts.last().is_some_and(|&s| s as usize >= corners)
    {
        return fail("polygon loop starts are out of range".into());
    }
    if let Some(c) = g
        .corner_vertices
        .iter()
        .position(|&v| v as usize >= g.positions.len())
    {
        return fail(format!(
            "loop {c} uses vertex {} of {}",
            g.corner_vertices[c],
            g.positions.len()
        ));
    }
    if let Some(len) = g.corner_uvs.map(<[_]>::len)
        && len != corners
    {
        return fail(format!("{len} uvs for {corners} loops"));
    }
    if g.positions.len() + faces > u32::MAX as usize {
        return fail("more vertices and faces than 32-bit indices can number".into());
    }
    if let Some(len) = g.vertex_colors.map(<[_]>::len)
        && len != g.positions.len()
    {
        return fail(format!(
            "{len} vertex colors for {} vertices",
            g.positions.len()
        ));
    }
    for (what, len) in [
        ("smooth", g.smooth.map(<[_]>::len)),
        ("material_indices", g.material_indices.map(<[_]>::len)),
    ] {
        if let Some(len) = len
            && len != faces
        {
            return fail(format!("{len} {what} entries for {faces} polygons"));
        }
    }
    let mut face_offsets: Vec<u32> = Vec::with_capacity(faces + 1);
    face_offsets.extend_from_slice(g.face_starts);
    face_offsets.push(corners as u32);
    let positions = match &g.transform {
        Some(m) => g
            .positions
            .par_chunks(4096)
            .flat_map_iter(|c| transform_positions(c, m, g.scale))
            .collect(),
        None => g.positions.to_vec(),
    };
    let identity_normals: Matrix3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let normal_matrix = g
        .transform
        .as_ref()
        .map_or(identity_normals, normal_transform);
    let (normals, normal_indices) = match (g.normals, g.smooth) {
        // Flat faces take Blender's face normals.
        (Some(NormalSource::Vertices(vertex_normals)), Some(smooth))
            if vertex_normals.len() == g.positions.len() && smooth.contains(&0) =>
        {
            let (values, indices) = mixed_corner_normals(
                vertex_normals,
                g.positions,
                g.corner_vertices,
                &face_offsets,
                smooth,
                &normal_matrix,
            );
            (Some(values), Some(indices))
        }
        (Some(source), _) => {
            let (values, indices) = corner_normals(
                source,
                g.corner_vertices,
                g.smooth,
                g.positions.len(),
                &normal_matrix,
            )
            .map_err(|e| Error::invalid(format!("object {:?}: {e}", g.name)))?;
            (Some(values), Some(indices))
        }
        (None, _) => (None, None),
    };
    let (uvs, uv_indices) = match g.corner_uvs {
        Some(uv) => {
            let (values, indices) =
                uv_vertex_map(uv, g.corner_vertices, &face_offsets, g.positions.len());
            (Some(values), Some(indices))
        }
        None => (None, None),
    };
    let written_smooth = match (g.smooth, &g.smooth_groups) {
        (Some(smooth), Some(input)) => {
            if input.corner_edges.len() != corners {
                return fail(format!(
                    "{} loop edges for {corners} loops",
                    input.corner_edges.len()
                ));
            }
            let groups = smooth_groups(&face_offsets, smooth, input)
                .map_err(|e| Error::invalid(format!("object {:?}: {e}", g.name)))?;
            Some(
                groups
                    .iter()
                    .zip(smooth)
                    .map(|(&group, &s)| if s != 0 { group } else { 0 })
                    .collect(),
            )
        }
        (smooth, _) => smooth.map(<[u32]>::to_vec),
    };
    // Faces may use material indices past the object's slots: Blender writes
    // `usemtl` with an empty name for them, as for empty slots.
    let mut materials: Vec<String> = g.materials.clone();
    if let Some(indices) = g.material_indices {
        let used = indices.iter().max().map_or(0, |&m| m as usize + 1);
        if used > materials.len() {
            materials.resize(used, String::new());
        }
    }
    let (groups, group_indices): (Vec<Cow<str>>, Option<Cow<[u32]>>) =
        match (&g.vertex_groups, &g.material_groups, g.material_indices) {
            (Some(_), Some(_), _) => {
                return fail("vertex groups and material groups at once are not supported".into());
            }
            (Some(input), None, _) => {
                let faces = face_vertex_groups(&face_offsets, g.corner_vertices, input)
                    .map_err(|e| Error::invalid(format!("object {:?}: {e}", g.name)))?;
                let mut names: Vec<Cow<str>> =
                    input.names.iter().map(|n| Cow::Owned(n.clone())).collect();
                names.push("off".into());
                (names, Some(faces.into()))
            }
            (None, Some(object), Some(indices)) => (
                materials
                    .iter()
                    .map(|m| Cow::Owned(format!("{object}_{m}")))
                    .collect(),
                Some(indices.to_vec().into()),
            ),
            _ => (Vec::new(), None),
        };
    let averaged;
    let point_colors = match (g.vertex_colors, g.corner_colors, g.corner_colors_srgb8) {
        (Some(colors), _, _) => Some(colors),
        (None, Some(colors), _) | (None, None, Some(colors)) => {
            if colors.len() != corners {
                return fail(format!(
                    "{} corner colors for {corners} loops",
                    colors.len()
                ));
            }
            let bytes = g.corner_colors.is_none();
            averaged =
                corner_colors_to_vertices(g.corner_vertices, g.positions.len(), colors, bytes);
            Some(averaged.as_slice())
        }
        (None, None, None) => None,
    };
    let mut mesh = Mesh {
        name: g.name.clone().into(),
        positions: positions.into(),
        colors: point_colors.map(|colors| {
            Cow::Owned(
                colors
                    .iter()
                    .map(|&[r, g, b, _]| linear_to_srgb([r, g, b]))
                    .collect(),
            )
        }),
        uvs: uvs.map(Cow::Owned),
        normals: normals.map(Cow::Owned),
        face_offsets: face_offsets.into(),
        position_indices: g.corner_vertices.to_vec().into(),
        uv_indices: uv_indices.map(Cow::Owned),
        normal_indices: normal_indices.map(Cow::Owned),
        smooth: written_smooth.map(Cow::Owned),
        materials: materials.into_iter().map(Cow::Owned).collect(),
        material_indices: g.material_indices.map(|m| Cow::Owned(m.to_vec())),
        groups,
        group_indices,
        edges: g.edges.map(|e| Cow::Owned(e.to_vec())),
    };
    if let Some(order) = g.material_indices.and_then(face_order) {
        reorder_faces(&mut mesh, &order);
    }
    // Valid by construction: every index comes from a checked input or from here.
    debug_assert!(mesh.validate().is_ok());
    Ok(mesh)
}

/// How many of `edge_count` edges no corner uses (`loops[].edge_index`):
/// Blender flags loose (`edges[].is_loose`) only edges that no face uses, so
/// when this is zero the slower flag needs no reading.
pub fn unused_edges(corner_edges: &[u32], edge_count: usize) -> Result<usize> {
    let mut used = vec![false; edge_count];
    for (corner, &e) in corner_edges.iter().enumerate() {
        match used.get_mut(e as usize) {
            Some(u) => *u = true,
            None => {
                return Err(Error::invalid(format!(
                    "loop {corner} uses edge {e} of {edge_count}"
                )));
            }
        }
    }
    Ok(used.iter().filter(|&&u| !u).count())
}

/// Puts the faces of `mesh` in `order` (a permutation of its faces).
pub fn reorder_faces(mesh: &mut Mesh, order: &[u32]) {
    let old = mesh.face_offsets.to_vec();
    let mut offsets = Vec::with_capacity(old.len());
    offsets.push(0u32);
    for &f in order {
        let f = f as usize;
        offsets.push(offsets.last().unwrap() + (old[f + 1] - old[f]));
    }
    let permute_corners = |values: &[u32]| -> Vec<u32> {
        order
            .iter()
            .flat_map(|&f| {
                values[old[f as usize] as usize..old[f as usize + 1] as usize]
                    .iter()
                    .copied()
            })
            .collect()
    };
    let permute_faces =
        |values: &[u32]| -> Vec<u32> { order.iter().map(|&f| values[f as usize]).collect() };
    mesh.position_indices = permute_corners(&mesh.position_indices).into();
    if let Some(uv) = &mesh.uv_indices {
        mesh.uv_indices = Some(permute_corners(uv).into());
    }
    if let Some(normal) = &mesh.normal_indices {
        mesh.normal_indices = Some(permute_corners(normal).into());
    }
    if let Some(smooth) = &mesh.smooth {
        mesh.smooth = Some(permute_faces(smooth).into());
    }
    if let Some(materials) = &mesh.material_indices {
        mesh.material_indices = Some(permute_faces(materials).into());
    }
    if let Some(groups) = &mesh.group_indices {
        mesh.group_indices = Some(permute_faces(groups).into());
    }
    mesh.face_offsets = offsets.into();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_blenders() {
        assert_eq!(round_4_digits(0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(round_4_digits(0.00001).to_bits(), (-0.0f32).to_bits());
        assert_eq!(round_4_digits(0.12346), 0.1235);
        // 0.12345 is 0.123449996 as a float: it rounds down.
        assert_eq!(round_4_digits(0.12345), 0.1234);
        assert_eq!(round_4_digits(-0.5), -0.5);
    }

    #[test]
    fn identity_transforms_keep_values() {
        let identity: Matrix4 = [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ];
        let axes: Matrix3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let m = world_and_axes_transform(&axes, &identity);
        assert_eq!(
            transform_positions(&[[1.5, -2.0, 3.25]], &m, 1.0),
            vec![[1.5, -2.0, 3.25]]
        );
        let n = normal_transform(&m);
        let (normals, indices) = corner_normals(
            NormalSource::Corners(&[[0.0, 0.0, 2.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]),
            &[0, 1, 0],
            None,
            2,
            &n,
        )
        .unwrap();
        assert_eq!(normals.len(), 2);
        assert_eq!(indices, vec![0, 0, 1]);
    }

    #[test]
    fn uvs_merge_per_vertex_within_the_limit() {
        // Two quads sharing vertices 1 and 2; the shared corners agree on vertex 1
        // and differ on vertex 2 (a seam).
        let corner_vertices = [0, 1, 2, 3, 1, 4, 5, 2];
        let uvs = [
            [0.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [0.0, 1.0],
            [1.00005, 0.0],
            [2.0, 0.0],
            [2.0, 1.0],
            [5.0, 5.0],
        ];
        let (merged, indices) = uv_vertex_map(&uvs, &corner_vertices, &[0, 4, 8], 6);
        assert_eq!(merged.len(), 7);
        assert_eq!(indices[1], indices[4]);
        assert_ne!(indices[2], indices[7]);
        // Vertex 1's list is [corner 4, corner 1]: corner 4 seeds the group.
        assert_eq!(merged[indices[1] as usize], [1.00005, 0.0]);
        // Vertex 2 has two groups: seeded by corner 7 then corner 2, numbered last-made first.
        assert_eq!(merged[indices[2] as usize], [1.0, 1.0]);
        assert_eq!(indices[7], indices[2] + 1);
    }

    #[test]
    fn normals_merge_the_same_on_any_number_of_threads() {
        let mut rng = crate::synth::Rng::new(9);
        // Few distinct directions, so that merging has work to do.
        let directions: Vec<[f32; 3]> = (0..500)
            .map(|_| [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.5])
            .collect();
        let per_corner: Vec<[f32; 3]> = (0..20_000)
            .map(|_| directions[rng.below(500) as usize])
            .collect();
        let corner_vertices: Vec<u32> = (0..20_000).map(|_| rng.below(3000)).collect();
        let identity: Matrix3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                corner_normals(
                    NormalSource::Corners(&per_corner),
                    &corner_vertices,
                    None,
                    3000,
                    &identity,
                )
                .unwrap()
            })
        };
        let (normals, indices) = run(1);
        assert_eq!(normals.len(), 500);
        // First appearance order, checked directly.
        let mut seen = Vec::new();
        for &i in &indices {
            if !seen.contains(&i) {
                assert_eq!(i as usize, seen.len());
                seen.push(i);
            }
        }
        for threads in [2, 3, 8] {
            assert_eq!(
                run(threads),
                (normals.clone(), indices.clone()),
                "{threads} threads"
            );
        }
    }

    #[test]
    fn vertex_normals_only_for_all_smooth_meshes() {
        let identity: Matrix3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let vertex_normals = [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]];
        let (normals, indices) = corner_normals(
            NormalSource::Vertices(&vertex_normals),
            &[0, 1, 2, 2],
            Some(&[1]),
            3,
            &identity,
        )
        .unwrap();
        assert_eq!(normals.len(), 3);
        assert_eq!(indices, vec![0, 1, 2, 2]);
        let error = corner_normals(
            NormalSource::Vertices(&vertex_normals),
            &[0, 1, 2],
            Some(&[0]),
            3,
            &identity,
        );
        assert!(error.is_err());
    }

    #[test]
    fn face_normals_follow_newell() {
        let square = [
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
        ];
        assert_eq!(face_normal(&square, &[0, 1, 2, 3]), [0.0, 0.0, 1.0]);
        assert_eq!(face_normal(&square, &[3, 2, 1, 0]), [0.0, 0.0, -1.0]);
        // Degenerate faces point up, as Blender's do.
        assert_eq!(face_normal(&square, &[0, 1, 1]), [0.0, 0.0, 1.0]);
        assert_eq!(face_normal(&square, &[]), [0.0, 0.0, 1.0]);
        let tilted = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 1.0]];
        let n = face_normal(&tilted, &[0, 1, 2]);
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert!((n[0]).abs() < 1e-7 && (n[1] + h).abs() < 1e-6 && (n[2] - h).abs() < 1e-6);
    }

    #[test]
    fn vertex_normals_on_smooth_faces_face_normals_on_flat_ones() {
        // Two triangles: the first smooth (vertex normals), the second flat.
        let positions = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
        ];
        let vertex_normals = [[0.0, 0.6, 0.8]; 4];
        let gathered = Gathered {
            name: "two".into(),
            positions: &positions,
            corner_vertices: &[0, 1, 2, 1, 3, 2],
            face_starts: &[0, 3],
            normals: Some(NormalSource::Vertices(&vertex_normals)),
            smooth: Some(&[1, 0]),
            scale: 1.0,
            ..Default::default()
        };
        let m = mesh(&gathered).unwrap();
        let normals = m.normals.unwrap();
        assert_eq!(normals.as_ref(), &[[0.0, 0.6, 0.8], [-0.0, -0.0, 1.0]]);
        assert_eq!(m.normal_indices.unwrap().as_ref(), &[0, 0, 0, 1, 1, 1]);
    }

    #[test]
    fn srgb_is_close_to_the_exact_curve() {
        let [negative, low, one] = linear_to_srgb([-1.0, 0.001, 1.0]);
        assert_eq!((negative, low), (0.0, 0.001 * 12.92));
        assert!((one - 1.0).abs() < 1e-4, "{one}");
        // The approximation stays within 2e-4 of the exact curve over [0.0031308, 4].
        for i in 0..4000 {
            let c = 0.0031308 + i as f32 * 0.001;
            let exact = 1.055 * (c as f64).powf(1.0 / 2.4) - 0.055;
            let [got, _, _] = linear_to_srgb([c, 0.5, 0.5]);
            assert!(
                (got as f64 - exact).abs() < 2e-4 * exact.max(1.0),
                "{c}: {got} vs {exact}"
            );
        }
    }

    #[test]
    fn smooth_groups_flood_across_smooth_edges() {
        // A strip of four quads: 0-1 share edge 1, 1-2 edge 2 (sharp), 2-3 edge 3.
        // Edges: 0 and 4 are the ends; the others are borders (one face each).
        let face_offsets = [0, 4, 8, 12, 16];
        let corner_edges = [
            0, 1, 5, 6, // face 0
            1, 2, 7, 8, // face 1
            2, 3, 9, 10, // face 2
            3, 4, 11, 12, // face 3
        ];
        let mut sharp = vec![0u32; 13];
        sharp[2] = 1;
        let input = |bitflags| SmoothGroupInput {
            corner_edges: &corner_edges,
            sharp_edges: &sharp,
            bitflags,
        };
        let smooth = [1, 1, 1, 1];
        assert_eq!(
            smooth_groups(&face_offsets, &smooth, &input(false)).unwrap(),
            [1, 1, 2, 2]
        );
        // Bits: the second group borders the first (across the sharp edge).
        assert_eq!(
            smooth_groups(&face_offsets, &smooth, &input(true)).unwrap(),
            [1, 1, 2, 2]
        );
        // A flat face is a group of its own and cuts the strip.
        let smooth = [1, 0, 1, 1];
        assert_eq!(
            smooth_groups(&face_offsets, &smooth, &input(false)).unwrap(),
            [1, 2, 3, 3]
        );
        let bits = smooth_groups(&face_offsets, &smooth, &input(true)).unwrap();
        assert_eq!(bits, [1, 2, 1, 1]);
        let bad = SmoothGroupInput {
            corner_edges: &[0, 99, 1, 2],
            sharp_edges: &sharp,
            bitflags: false,
        };
        assert!(smooth_groups(&[0, 4], &[1], &bad).is_err());
    }

    #[test]
    fn faces_take_the_vertex_group_of_most_weight() {
        // Vertex 0 in group 1 (0.5), vertex 1 in groups 0 (0.25) and 1 (0.25),
        // vertex 2 in group 0 (1.0), vertex 3 in none, vertex 4 in group 7 (unknown).
        let input = VertexGroupInput {
            names: vec!["a".into(), "b".into()],
            offsets: &[0, 1, 3, 4, 4, 5],
            groups: &[1, 0, 1, 0, 7],
            weights: &[0.5, 0.25, 0.25, 1.0, 1.0],
        };
        let faces = face_vertex_groups(
            &[0, 3, 6, 9, 11],
            &[0, 1, 3, 1, 2, 3, 3, 4, 3, 0, 2],
            &input,
        )
        .unwrap();
        // b 0.75 over a 0.25; a 1.25 over b 0.25; nothing known: off (2); a 1.0 over b 0.5.
        assert_eq!(faces, [1, 0, 2, 0]);
    }

    #[test]
    fn corner_colors_average_per_vertex() {
        // Vertex 0 has two corners, vertex 1 one, vertex 2 none.
        let corners = [0, 1, 0];
        let floats = [[0.5, 0.0, 1.0, 1.0], [0.25; 4], [1.0, 0.0, 0.0, 1.0]];
        let averaged = corner_colors_to_vertices(&corners, 3, &floats, false);
        assert_eq!(averaged[0], [0.75, 0.0, 0.5, 1.0]);
        assert_eq!(averaged[1], [0.25; 4]);
        assert_eq!(averaged[2], [0.0, 0.0, 0.0, 1.0]);
        // Bytes 200 and 101 average to 150.5, truncated to 150, then decoded.
        let bytes = [[200.0 / 255.0; 4], [0.0; 4], [101.0 / 255.0; 4]];
        let averaged = corner_colors_to_vertices(&corners, 2, &bytes, true);
        assert_eq!(averaged[0][0], srgb_to_linear(150.0 / 255.0));
    }

    #[test]
    fn unused_edges_are_counted() {
        assert_eq!(unused_edges(&[0, 1, 2], 3).unwrap(), 0);
        assert_eq!(unused_edges(&[0, 2, 2], 4).unwrap(), 2);
        assert!(unused_edges(&[0, 5], 4).is_err());
    }

    #[test]
    fn faces_sort_by_material_stably() {
        assert_eq!(face_order(&[0, 0, 1]), None);
        assert_eq!(face_order(&[1, 0, 1, 0]), Some(vec![1, 3, 0, 2]));
    }
}
