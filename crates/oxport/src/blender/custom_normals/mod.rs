//! Custom normals as Blender 4.5 and 5.0 store them (`mesh_set_custom_normals`,
//! which its OBJ importer calls): each corner's normal encoded as two
//! 16-bit factors in the normal space of its smooth fan, and edges marked
//! sharp where the normals of one fan part.
//!
//! Blender computes the fans twice: once with the edges as they are, then,
//! after marking sharp the edges across which the given normals differ,
//! again; the normals are then averaged per fan and encoded in its space.
//! Each vertex's fans depend on its faces alone, so the vertices are spread
//! over the threads (Blender runs the marking and encoding on one).
//!
//! The float arithmetic is Blender's, operation for operation (it is built
//! without contracting into fused multiply-adds): `math::normalize` divides
//! by the length, `normalize_v3` multiplies by its inverse, angles come from
//! `safe_acos_approx`.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

mod space;
mod stream;

use super::ImportedMesh;
use super::normals::face_normal;
use super::transform::{add, dot, scale, sub};
use super::validity::sorted_face;
use crate::pipeline::Pipeline;
use crate::{Error, Result};
use space::{Space, THRESHOLD, normalize, safe_acos_approx};
pub use stream::{ImportedSource, NormalsStream};

/// A mesh's custom normals as Blender stores them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CustomNormals {
    /// The `custom_normal` attribute (face corners, two 16-bit integers each).
    pub encoded: Vec<[i16; 2]>,
    /// The `sharp_edge` attribute: the edges marked where normals part.
    pub sharp_edges: Vec<bool>,
}

/// Blender 4.5's and 5.0's `mesh_set_custom_normals` on a mesh its importer built from
/// `mesh` ([`super::imported_mesh`]): `corner_edges` and `edge_count` are
/// the mesh's edges in Blender (`.corner_edge`; `mesh.corner_edges` where the
/// importer gave Blender `mesh.edges`), as the marking refers to them. The normals are `mesh.corner_normals`, zero ones standing for the
/// fan's own. `None` where this does not reproduce Blender: a mesh without
/// normals, with a face of fewer than three corners or using a vertex twice,
/// or whose fans do not close (Blender's own function must set those).
pub fn encode_custom_normals(
    mesh: &ImportedMesh,
    corner_edges: &[u32],
    edge_count: usize,
    pipeline: &Pipeline,
) -> Result<Option<CustomNormals>> {
    let Some(normals) = mesh.corner_normals.as_deref() else {
        return Ok(None);
    };
    let corners = mesh.corner_vertices.len();
    if corner_edges.len() != corners || normals.len() != corners {
        return Err(Error::invalid(format!(
            "{} corner edges and {} normals for {corners} corners",
            corner_edges.len(),
            normals.len()
        )));
    }
    if let Some(c) = corner_edges.iter().position(|&e| e as usize >= edge_count) {
        return Err(Error::invalid(format!(
            "corner {c} uses edge {} of {edge_count}",
            corner_edges[c]
        )));
    }
    let Some(vertex_faces) = VertexFaces::new(mesh, pipeline) else {
        return Ok(None);
    };
    let faces = mesh.face_offsets.len() - 1;
    // A face reads its corners' positions (four of 16 bytes, typically).
    let face_normals = pipeline.map_indices(faces, 64, |f| {
        face_normal(&mesh.positions, &mesh.corner_vertices[range(mesh, f)])
    });
    let topology = Topology {
        mesh,
        corner_edges,
        face_normals: &face_normals,
        vertex_faces: &vertex_faces,
        pipeline,
    };
    let mut custom = pipeline.map_indices(corners, 24, |c| normalize(normals[c]));

    // The fans as the edges are: zero normals take their fan's, the edges
    // across which a fan's normals part are marked sharp, and each fan's
    // normals are encoded. Only around the marked edges do the fans change:
    // their vertices are done again, with the edges marked.
    let marked: Vec<AtomicBool> = (0..edge_count).map(|_| AtomicBool::new(false)).collect();
    let again: Vec<AtomicBool> = (0..mesh.positions.len())
        .map(|_| AtomicBool::new(false))
        .collect();
    let encoded: Vec<AtomicU32> = (0..corners).map(|_| AtomicU32::new(0)).collect();
    let all: Vec<u32> = (0..mesh.positions.len() as u32).collect();
    let Some(filled) =
        topology.par_vertices(&all, &[], |fans, filled: &mut Vec<(u32, [f32; 3])>| {
            let mut parted = false;
            for fan in fans.iter() {
                let normal = given_or(&custom, fan.space.lnor);
                for &local in fan.corners {
                    let corner = fans.infos[local].corner;
                    if custom[corner] == [0.0; 3] {
                        filled.push((corner as u32, fan.space.lnor));
                    }
                }
                for (edge, other) in fans.parted_edges(fan.corners, corner_edges, normal) {
                    marked[edge as usize].store(true, Ordering::Relaxed);
                    again[other as usize].store(true, Ordering::Relaxed);
                    parted = true;
                }
            }
            if parted {
                again[fans.vertex as usize].store(true, Ordering::Relaxed);
            } else {
                // Encoded now, unless a neighbour marks one of its edges (then
                // this vertex is done again).
                for fan in fans.iter() {
                    fans.encode(&fan, given_or(&custom, fan.space.lnor), &encoded);
                }
            }
            Some(())
        })
    else {
        return Ok(None);
    };
    for (corner, normal) in filled {
        custom[corner as usize] = normal;
    }
    let again: Vec<u32> = again
        .into_iter()
        .enumerate()
        .filter(|(_, again)| again.load(Ordering::Relaxed))
        .map(|(v, _)| v as u32)
        .collect();
    let sharp_edges: Vec<bool> = marked.into_iter().map(AtomicBool::into_inner).collect();
    let redone = topology.par_vertices(&again, &sharp_edges, |fans, _: &mut Vec<()>| {
        for fan in fans.iter() {
            fans.encode(&fan, |c| custom[c], &encoded);
        }
        Some(())
    });
    if redone.is_none() {
        return Ok(None);
    }
    let encoded = encoded
        .into_iter()
        .map(|packed| {
            let packed = packed.into_inner();
            [packed as u16 as i16, (packed >> 16) as u16 as i16]
        })
        .collect();
    Ok(Some(CustomNormals {
        encoded,
        sharp_edges,
    }))
}

/// A corner's given normal, or `fan_normal` where it has none (zero), as
/// Blender fills those before marking and encoding.
fn given_or(custom: &[[f32; 3]], fan_normal: [f32; 3]) -> impl Fn(usize) -> [f32; 3] + '_ {
    move |c| match custom[c] {
        [0.0, 0.0, 0.0] => fan_normal,
        n => n,
    }
}

fn range(mesh: &ImportedMesh, face: usize) -> std::ops::Range<usize> {
    mesh.face_offsets[face] as usize..mesh.face_offsets[face + 1] as usize
}

/// Each vertex's faces in ascending order (Blender's `vert_to_face_map`).
struct VertexFaces {
    offsets: Vec<u32>,
    faces: Vec<u32>,
}

impl VertexFaces {
    /// None when a face has fewer than three corners or uses a vertex twice,
    /// or an index is out of range.
    fn new(mesh: &ImportedMesh, pipeline: &Pipeline) -> Option<Self> {
        let vertices = mesh.positions.len();
        let offsets = &mesh.face_offsets;
        if offsets.first() != Some(&0)
            || offsets.last().map(|&o| o as usize) != Some(mesh.corner_vertices.len())
        {
            return None;
        }
        // A face reads its offsets and corners (four of 4 bytes, typically).
        let plain = pipeline.all(offsets.len() - 1, 24, |f| {
            let (start, end) = (offsets[f] as usize, offsets[f + 1] as usize);
            let Some(face) = mesh.corner_vertices.get(start..end) else {
                return false;
            };
            face.iter().all(|&v| (v as usize) < vertices) && sorted_face(face).is_some()
        });
        if !plain {
            return None;
        }
        let mut counts = vec![0u32; vertices + 1];
        for &v in &mesh.corner_vertices {
            counts[v as usize + 1] += 1;
        }
        for v in 0..vertices {
            counts[v + 1] += counts[v];
        }
        let mut next = counts.clone();
        let mut faces = vec![0u32; mesh.corner_vertices.len()];
        for (f, w) in offsets.windows(2).enumerate() {
            for &v in &mesh.corner_vertices[w[0] as usize..w[1] as usize] {
                faces[next[v as usize] as usize] = f as u32;
                next[v as usize] += 1;
            }
        }
        Some(VertexFaces {
            offsets: counts,
            faces,
        })
    }

    fn of(&self, vertex: usize) -> &[u32] {
        &self.faces[self.offsets[vertex] as usize..self.offsets[vertex + 1] as usize]
    }
}

struct Topology<'a> {
    mesh: &'a ImportedMesh,
    corner_edges: &'a [u32],
    face_normals: &'a [[f32; 3]],
    vertex_faces: &'a VertexFaces,
    pipeline: &'a Pipeline,
}

/// One face around a vertex (Blender's `VertCornerInfo`).
#[derive(Clone, Copy, Debug)]
struct CornerInfo {
    face: usize,
    corner: usize,
    corner_prev: usize,
    edge_prev: usize,
    edge_next: usize,
}

/// An edge around a vertex as the fans see it (Blender's `VertEdgeInfo`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum EdgeState {
    Unused,
    /// One corner so far, and whether its face winds towards the vertex there.
    One(usize, bool),
    Two(usize, usize),
    /// Marked sharp, of a flat face, between faces of opposite winding, or
    /// used by more than two faces.
    Sharp,
}

/// A vertex's fans: its corners' facts, and per fan its local corners and
/// space; with the scratch space that finding them takes, kept from one
/// vertex to the next (a vertex has a handful of corners: allocating for
/// each would cost more than the arithmetic).
#[derive(Default)]
struct Fans {
    vertex: u32,
    infos: Vec<CornerInfo>,
    corners: Vec<usize>,
    ends: Vec<usize>,
    spaces: Vec<Space>,
    /// The other end of each edge around the vertex, in order of first use.
    others: Vec<u32>,
    edges: Vec<EdgeState>,
    directions: Vec<[f32; 3]>,
    visited: Vec<bool>,
    fan_directions: Vec<[f32; 3]>,
}

struct Fan<'a> {
    corners: &'a [usize],
    space: Space,
}

impl<'a> Topology<'a> {
    /// Runs `each` on each of `vertices` with its fans, spread over the threads;
    /// what it pushes is gathered. None when the fans of a vertex cannot be
    /// found (see [`Fans::fill`]) or `each` returns None.
    fn par_vertices<T: Send>(
        &self,
        vertices: &[u32],
        sharp_edges: &[bool],
        each: impl Fn(&Fans, &mut Vec<T>) -> Option<()> + Sync,
    ) -> Option<Vec<T>> {
        // A vertex's fans read some hundreds of bytes (its corners, their
        // faces and edges); one set of buffers serves a task's vertices.
        let parts: Option<Vec<Vec<T>>> = self
            .pipeline
            .map_ranges(vertices.len(), 256, |range| {
                let (mut fans, mut out) = (Fans::default(), Vec::new());
                for &vertex in &vertices[range] {
                    fans.fill(self, vertex as usize, sharp_edges)?;
                    each(&fans, &mut out)?;
                }
                Some(out)
            })
            .into_iter()
            .collect();
        Some(parts?.into_iter().flatten().collect())
    }

    /// Blender's `accumulate_fan_normal`: one corner's is its face's normal;
    /// otherwise the face normals weighted by their corners' angles.
    fn fan_normal(&self, infos: &[CornerInfo], directions: &[[f32; 3]], fan: &[usize]) -> [f32; 3] {
        if let [only] = fan {
            return self.face_normals[infos[*only].face];
        }
        let mut sum = [0.0f32; 3];
        for &local in fan {
            let info = &infos[local];
            let factor =
                safe_acos_approx(dot(directions[info.edge_prev], directions[info.edge_next]));
            sum = add(sum, scale(self.face_normals[info.face], factor));
        }
        normalize(sum)
    }
}

impl Fans {
    /// The fans around `vertex` (Blender's `normals_calc_corners` for one
    /// vertex), in the order Blender finds them. None if a traversal runs
    /// past the vertex's corners (inconsistent input).
    fn fill(&mut self, topology: &Topology, vertex: usize, sharp_edges: &[bool]) -> Option<()> {
        let mesh = topology.mesh;
        let position = mesh.positions[vertex];
        self.vertex = vertex as u32;
        for list in [&mut self.corners, &mut self.ends] {
            list.clear();
        }
        self.infos.clear();
        self.spaces.clear();
        self.others.clear();
        let others = &mut self.others;
        let mut local = |v: u32| match others.iter().position(|&o| o == v) {
            Some(i) => i,
            None => {
                others.push(v);
                others.len() - 1
            }
        };
        for &face in topology.vertex_faces.of(vertex) {
            let r = range(mesh, face as usize);
            let at = r.start
                + mesh.corner_vertices[r.clone()]
                    .iter()
                    .position(|&v| v as usize == vertex)?;
            let corner_prev = if at == r.start { r.end - 1 } else { at - 1 };
            let corner_next = if at + 1 == r.end { r.start } else { at + 1 };
            let edge_prev = local(mesh.corner_vertices[corner_prev]);
            let edge_next = local(mesh.corner_vertices[corner_next]);
            self.infos.push(CornerInfo {
                face: face as usize,
                corner: at,
                corner_prev,
                edge_prev,
                edge_next,
            });
        }
        let count = self.infos.len();
        if count == 0 {
            return Some(());
        }
        let sharp =
            |corner: usize| sharp_edges.get(topology.corner_edges[corner] as usize) == Some(&true);
        let edges = &mut self.edges;
        edges.clear();
        edges.resize(self.others.len(), EdgeState::Unused);
        for (i, info) in self.infos.iter().enumerate() {
            if !mesh.smooth_faces[info.face] {
                edges[info.edge_prev] = EdgeState::Sharp;
                edges[info.edge_next] = EdgeState::Sharp;
                continue;
            }
            // The previous edge winds towards the vertex, the next one away.
            for (edge, towards, edge_corner) in [
                (info.edge_prev, true, info.corner_prev),
                (info.edge_next, false, info.corner),
            ] {
                edges[edge] = match edges[edge] {
                    EdgeState::Unused if sharp(edge_corner) => EdgeState::Sharp,
                    EdgeState::Unused => EdgeState::One(i, towards),
                    EdgeState::One(first, winding) if winding != towards => {
                        EdgeState::Two(first, i)
                    }
                    _ => EdgeState::Sharp,
                };
            }
        }
        self.directions.clear();
        self.directions.extend(
            self.others
                .iter()
                .map(|&o| normalize(sub(mesh.positions[o as usize], position))),
        );
        self.visited.clear();
        self.visited.resize(count, false);
        let mut visited_count = 0;
        let mut start = 0;
        loop {
            let begin = self.corners.len();
            traverse(&self.infos, &self.edges, start, &mut self.corners)?;
            let fan = &self.corners[begin..];
            let normal = topology.fan_normal(&self.infos, &self.directions, fan);
            let space = fan_space(
                &self.infos,
                &self.directions,
                fan,
                normal,
                &mut self.fan_directions,
            );
            self.spaces.push(space);
            self.ends.push(self.corners.len());
            visited_count += fan.len();
            if visited_count >= count {
                return (visited_count == count).then_some(());
            }
            for &c in &self.corners[begin..] {
                self.visited[c] = true;
            }
            while self.visited[start] {
                start += 1;
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = Fan<'_>> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .zip(&self.spaces)
            .map(|((begin, &end), &space)| Fan {
                corners: &self.corners[begin..end],
                space,
            })
    }

    /// Encodes a fan's normals (`normal(corner)`) in its space, into
    /// `encoded` (packed, per corner): one corner's own, or their average
    /// in fan order, as Blender averages them.
    fn encode(&self, fan: &Fan, normal: impl Fn(usize) -> [f32; 3], encoded: &[AtomicU32]) {
        let value = match fan.corners {
            [only] => normal(self.infos[*only].corner),
            all => {
                let mut sum = [0.0f32; 3];
                for &local in all {
                    sum = add(sum, normal(self.infos[local].corner));
                }
                scale(sum, 1.0 / all.len() as f32)
            }
        };
        let [alpha, beta] = fan.space.encode(value);
        let packed = u32::from(alpha as u16) | u32::from(beta as u16) << 16;
        for &local in fan.corners {
            encoded[self.infos[local].corner].store(packed, Ordering::Relaxed);
        }
    }

    /// The edges to mark sharp in a fan whose corners' normals part (the
    /// loop of `mesh_normals_corner_custom_set`): walking the fan backwards,
    /// where a normal differs from the last one kept, the edge between it
    /// and the corner before is marked; the ends are compared too. Each with
    /// its other vertex.
    fn parted_edges(
        &self,
        fan: &[usize],
        corner_edges: &[u32],
        normal: impl Fn(usize) -> [f32; 3],
    ) -> Vec<(u32, u32)> {
        let mut marked = Vec::new();
        if fan.len() < 2 {
            return marked;
        }
        let edge_between = |local: usize, previous: usize| {
            let info = &self.infos[local];
            let edge = corner_edges[info.corner];
            let edge_prev = corner_edges[info.corner_prev];
            let prev_edge = corner_edges[previous];
            if prev_edge == edge_prev {
                (prev_edge, self.others[info.edge_prev])
            } else {
                (edge, self.others[info.edge_next])
            }
        };
        let mut previous = usize::MAX;
        let mut kept: Option<[f32; 3]> = None;
        for &local in fan.iter().rev() {
            let corner = self.infos[local].corner;
            let n = normal(corner);
            match kept {
                None => kept = Some(n),
                Some(k) if dot(k, n) < THRESHOLD => {
                    marked.push(edge_between(local, previous));
                    kept = Some(n);
                }
                Some(_) => {}
            }
            previous = corner;
        }
        let last = fan[fan.len() - 1];
        if let Some(k) = kept
            && dot(k, normal(self.infos[last].corner)) < THRESHOLD
        {
            marked.push(edge_between(last, previous));
        }
        marked
    }
}

/// Blender's `traverse_fan_local_corners`: from `start`, around the vertex
/// across two-face edges one way, then the other unless it came round.
fn traverse(
    infos: &[CornerInfo],
    edges: &[EdgeState],
    start: usize,
    fan: &mut Vec<usize>,
) -> Option<()> {
    let begin = fan.len();
    fan.push(start);
    let mut current = start;
    let mut edge = infos[current].edge_next;
    let mut cyclic = false;
    while let EdgeState::Two(a, b) = edges[edge] {
        current = if a == current { b } else { a };
        if current == start {
            cyclic = true;
            break;
        }
        fan.push(current);
        if fan.len() - begin > infos.len() {
            return None;
        }
        edge = infos[current].edge_next;
    }
    fan[begin..].reverse();
    if cyclic {
        // The fan starts at its smallest corner index, as Blender's did before.
        let first = (begin..fan.len())
            .min_by_key(|&i| infos[fan[i]].corner)
            .expect("a fan has a corner");
        fan[begin..].rotate_left(first - begin);
        return Some(());
    }
    current = start;
    edge = infos[current].edge_prev;
    while let EdgeState::Two(a, b) = edges[edge] {
        current = if current == a { b } else { a };
        fan.push(current);
        if fan.len() - begin > infos.len() {
            return None;
        }
        edge = infos[current].edge_prev;
    }
    Some(())
}

/// Blender's `handle_fan_result_and_custom_normals` building the fan's
/// space: the reference edge is the first corner's next one, the other the
/// last corner's previous one; alpha averages the angles of every edge of
/// the fan to the normal.
fn fan_space(
    infos: &[CornerInfo],
    directions: &[[f32; 3]],
    fan: &[usize],
    normal: [f32; 3],
    fan_directions: &mut Vec<[f32; 3]>,
) -> Space {
    let first = infos[fan[0]].edge_next;
    let last = infos[fan[fan.len() - 1]].edge_prev;
    fan_directions.clear();
    if fan.len() > 1 {
        fan_directions.extend(fan.iter().map(|&local| directions[infos[local].edge_next]));
        if last != first {
            fan_directions.push(directions[last]);
        }
    }
    Space::define(normal, directions[first], directions[last], fan_directions)
}

#[cfg(test)]
mod tests;
