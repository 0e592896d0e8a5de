//! Normals as Blender 3.4's exporter writes them: transformed, normalized,
//! rounded to four digits and merged; face normals by Newell's method.

use crate::{Error, Result};

use super::transform::{normalize, transform_normal};
use super::{Exporter, Matrix3};
use crate::merge::{Item, merge};
use crate::pipeline::Pipeline;

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
    /// it only when every face is smooth; [`mesh`](super::mesh()) computes the flat faces'
    /// normals as Blender caches them ([`face_normal`]; `polygons[].normal`
    /// computes triangles and quads another way and differs in the last bits).
    /// For Blender 4.1+ ([`domain_normals`]): `vertex_normals[].vector` of a
    /// mesh whose `normals_domain` is `POINT`.
    Vertices(&'a [[f32; 3]]),
    /// `polygon_normals[].vector` of a Blender 4.1+ mesh whose
    /// `normals_domain` is `FACE`: one per face ([`domain_normals`] only).
    Faces(&'a [[f32; 3]]),
}

/// A face's normal as Blender 3.4 caches it next to the vertex normals
/// (`mesh_calc_normals_poly_and_vertex`): Newell's method over the face's
/// corners, whatever its size, in float arithmetic, then `normalize_v3`
/// (multiplying by the reciprocal of the length); (0, 0, 1) for a degenerate face.
pub fn face_normal(positions: &[[f32; 3]], corner_vertices: &[u32]) -> [f32; 3] {
    if corner_vertices.is_empty() {
        return [0.0, 0.0, 1.0];
    }
    normalize(newell(positions, corner_vertices)).unwrap_or([0.0, 0.0, 1.0])
}

/// Newell's sum over a face's corners (Blender's `add_newell_cross_v3_v3v3`
/// from the last corner round), in float arithmetic: twice the face's
/// area-weighted normal, not normalized.
pub(super) fn newell(positions: &[[f32; 3]], corner_vertices: &[u32]) -> [f32; 3] {
    let mut n = [0.0f32; 3];
    let Some(&last) = corner_vertices.last() else {
        return n;
    };
    let mut previous = positions[last as usize];
    for &v in corner_vertices {
        let current = positions[v as usize];
        n[0] += (previous[1] - current[1]) * (previous[2] + current[2]);
        n[1] += (previous[2] - current[2]) * (previous[0] + current[0]);
        n[2] += (previous[0] - current[0]) * (previous[1] + current[1]);
        previous = current;
    }
    n
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

fn round_all(
    values: &[[f32; 3]],
    normal_matrix: &Matrix3,
    exporter: Exporter,
    pipeline: &Pipeline,
) -> Vec<([f32; 3], u64)> {
    // A normal reads 12 bytes and writes 20.
    pipeline.map_indices(values.len(), 32, |i| {
        let n = transform_normal(normal_matrix, values[i], exporter).map(round_4_digits);
        (n, normal_key(n))
    })
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
    pipeline: &Pipeline,
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
            Rounded::PerCorner(round_all(
                normals,
                normal_matrix,
                Exporter::Blender34,
                pipeline,
            ))
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
            Rounded::PerVertex(round_all(
                vertices,
                normal_matrix,
                Exporter::Blender34,
                pipeline,
            ))
        }
        NormalSource::Faces(_) => {
            return Err(Error::invalid(
                "face normals are Blender 4.1+'s (a mesh's normals domain): build for that exporter",
            ));
        }
    };
    Ok(merge_normals(
        rounded,
        corner_vertices,
        vertex_count,
        pipeline,
    ))
}

/// Normals as Blender 4.1+'s exporter writes them, from the mesh's normals
/// domain: each transformed by `normal_matrix`, normalized, rounded to four
/// digits and merged with equal ones in the order the exporter walks the
/// domain: faces in order, the vertices that have a face in index order,
/// or corners in order. Faces are `face_offsets[f]..face_offsets[f + 1]`.
/// Returns the normals and one index per corner.
pub fn domain_normals(
    source: NormalSource,
    corner_vertices: &[u32],
    face_offsets: &[u32],
    vertex_count: usize,
    normal_matrix: &Matrix3,
    pipeline: &Pipeline,
) -> Result<(Vec<[f32; 3]>, Vec<u32>)> {
    let count = |what: &str, got: usize, want: usize, of: &str| {
        if got == want {
            Ok(())
        } else {
            Err(Error::invalid(format!(
                "{got} {what} normals for {want} {of}"
            )))
        }
    };
    // Merges `walk` (indices into `values`) in order; returns the normals and
    // each value's index (walked ones only).
    let merge = |values: &[[f32; 3]], walk: &[u32]| {
        let rounded = round_all(values, normal_matrix, Exporter::Blender45, pipeline);
        let item = |i: usize| {
            let at = walk[i] as usize;
            let (value, key) = rounded[at];
            Item {
                slot: at,
                vertex: 0,
                value,
                key: Some(key),
            }
        };
        merge(walk.len(), item, 0, values.len(), pipeline)
    };
    match source {
        NormalSource::Corners(normals) => {
            count("corner", normals.len(), corner_vertices.len(), "corners")?;
            let rounded = Rounded::PerCorner(round_all(
                normals,
                normal_matrix,
                Exporter::Blender45,
                pipeline,
            ));
            Ok(merge_normals(
                rounded,
                corner_vertices,
                vertex_count,
                pipeline,
            ))
        }
        NormalSource::Faces(normals) => {
            let faces = face_offsets.len().saturating_sub(1);
            count("face", normals.len(), faces, "faces")?;
            let walk: Vec<u32> = (0..faces as u32).collect();
            let (values, by_face) = merge(normals, &walk);
            let mut indices = vec![0u32; corner_vertices.len()];
            for (f, range) in face_offsets.windows(2).enumerate() {
                indices[range[0] as usize..range[1] as usize].fill(by_face[f]);
            }
            Ok((values, indices))
        }
        NormalSource::Vertices(normals) => {
            count("vertex", normals.len(), vertex_count, "vertices")?;
            let mut has_face = vec![false; vertex_count];
            for &v in corner_vertices {
                has_face[v as usize] = true;
            }
            let walk: Vec<u32> = (0..vertex_count as u32)
                .filter(|&v| has_face[v as usize])
                .collect();
            let (values, by_vertex) = merge(normals, &walk);
            let indices = corner_vertices
                .iter()
                .map(|&v| by_vertex[v as usize])
                .collect();
            Ok((values, indices))
        }
    }
}

/// The corner normals of a mesh without auto smooth or custom normals, from
/// its vertex normals: Blender's split normals are the vertex normals on
/// smooth faces and [`face_normal`] on flat ones. Each vertex and each flat
/// face is transformed and rounded once, not each corner.
pub(super) fn mixed_corner_normals(
    vertex_normals: &[[f32; 3]],
    positions: &[[f32; 3]],
    corner_vertices: &[u32],
    face_offsets: &[u32],
    smooth: &[u32],
    normal_matrix: &Matrix3,
    pipeline: &Pipeline,
) -> (Vec<[f32; 3]>, Vec<u32>) {
    let vertex_count = vertex_normals.len();
    let flat: Vec<u32> = (0..smooth.len() as u32)
        .filter(|&f| smooth[f as usize] == 0)
        .collect();
    // A face reads its corners' positions (four of 16 bytes, typically).
    let face_normals = pipeline.map_indices(flat.len(), 64, |i| {
        let f = flat[i] as usize;
        let range = face_offsets[f] as usize..face_offsets[f + 1] as usize;
        face_normal(positions, &corner_vertices[range])
    });
    let mut table = round_all(vertex_normals, normal_matrix, Exporter::Blender34, pipeline);
    table.extend(round_all(
        &face_normals,
        normal_matrix,
        Exporter::Blender34,
        pipeline,
    ));
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
        pipeline,
    )
}

/// Merges rounded normals with equal ones in first-appearance (corner) order
/// ([`merge`]: the corners around a smooth vertex usually share its normal,
/// and those of a flat face share the face's).
fn merge_normals(
    rounded: Rounded,
    corner_vertices: &[u32],
    vertex_count: usize,
    pipeline: &Pipeline,
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
    let item = |i: usize| {
        let (slot, vertex, (value, key)) = if let Some(values) = by_vertex {
            let v = corner_vertices[vertex_order[i] as usize] as usize;
            (v, v, values[v])
        } else {
            let v = corner_vertices[i] as usize;
            (i, v, corner_value(i))
        };
        Item {
            slot,
            vertex,
            value,
            key: Some(key),
        }
    };
    // A vertex's normal is merged once: no cache needed then.
    let cache = if by_vertex.is_some() { 0 } else { vertex_count };
    let (normals, slot_indices) = merge(items, item, cache, slots, pipeline);
    let indices = match by_vertex {
        Some(_) => pipeline.map_indices(corner_vertices.len(), 8, |c| {
            slot_indices[corner_vertices[c] as usize]
        }),
        None => slot_indices,
    };
    (normals, indices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::Pipeline;

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
    fn normals_merge_the_same_on_any_number_of_threads() {
        let mut rng = crate::synth::Rng::new(9);
        // Few distinct directions, so that merging has work to do.
        let directions: Vec<[f32; 3]> = (0..500)
            .map(|_| [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.5])
            .collect();
        // Enough corners for the merge's sort to run on several threads.
        let corners = 1 << 17;
        let per_corner: Vec<[f32; 3]> = (0..corners)
            .map(|_| directions[rng.below(500) as usize])
            .collect();
        let corner_vertices: Vec<u32> = (0..corners).map(|_| rng.below(3000)).collect();
        let identity: Matrix3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let run = |threads: usize| {
            corner_normals(
                NormalSource::Corners(&per_corner),
                &corner_vertices,
                None,
                3000,
                &identity,
                &Pipeline::new(Some(threads)).unwrap(),
            )
            .unwrap()
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
            &Pipeline::new(None).unwrap(),
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
            &Pipeline::new(None).unwrap(),
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
    fn domain_normals_merge_in_the_order_of_their_domain() {
        let identity: Matrix3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let (up, side) = ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0]);
        // Two triangles: vertex 3 has no face; vertex 4 comes first in the
        // corners but has the highest index.
        let corner_vertices = [4, 1, 2, 2, 1, 0];
        let offsets = [0, 3, 6];
        // Faces: in face order, each face's corners its normal.
        let (normals, indices) = domain_normals(
            NormalSource::Faces(&[side, up]),
            &corner_vertices,
            &offsets,
            5,
            &identity,
            &Pipeline::new(None).unwrap(),
        )
        .unwrap();
        assert_eq!(normals.len(), 2);
        assert_eq!(normals[0][0], 1.0);
        assert_eq!(indices, [0, 0, 0, 1, 1, 1]);
        // Vertices: by index, those without a face left out (vertex 3's
        // normal is none of the others and takes no index).
        let weird = [0.0, 1.0, 0.0];
        let (normals, indices) = domain_normals(
            NormalSource::Vertices(&[up, side, up, weird, side]),
            &corner_vertices,
            &offsets,
            5,
            &identity,
            &Pipeline::new(None).unwrap(),
        )
        .unwrap();
        assert_eq!(normals.len(), 2, "vertex 3 is not written");
        assert_eq!(normals[0][2], 1.0, "vertex 0's comes first, not vertex 4's");
        assert_eq!(indices, [1, 1, 0, 0, 1, 0]);
        // Corners: in corner order.
        let per_corner = [side, side, up, up, side, up];
        let (_, indices) = domain_normals(
            NormalSource::Corners(&per_corner),
            &corner_vertices,
            &offsets,
            5,
            &identity,
            &Pipeline::new(None).unwrap(),
        )
        .unwrap();
        assert_eq!(indices, [0, 0, 1, 1, 0, 1]);
        // Wrong lengths are errors, and face normals are 4.1+'s only.
        assert!(
            domain_normals(
                NormalSource::Faces(&[up]),
                &corner_vertices,
                &offsets,
                5,
                &identity,
                &Pipeline::new(None).unwrap()
            )
            .is_err()
        );
        assert!(
            corner_normals(
                NormalSource::Faces(&[up, up]),
                &corner_vertices,
                None,
                5,
                &identity,
                &Pipeline::new(None).unwrap()
            )
            .is_err()
        );
    }
}
