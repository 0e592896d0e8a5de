//! Pass 3b, on all cores: each object's elements (its own, then copies of
//! those it uses from elsewhere) and its [`Mesh`].

use std::collections::HashMap;

use crate::mesh::Mesh;

use super::Colors;
use super::block::{ABSENT, Block, Elements, Kind, Reference};
use super::plan::{Arrays, Plan};
use super::resolve::Foreign;

/// Local indices for the elements an object uses from outside its own
/// (`own` of them): copies appended in first-use order.
pub(super) struct Copies {
    pub(super) own: usize,
    pub(super) index: HashMap<usize, u32>,
    pub(super) copied: Vec<usize>,
}

impl Copies {
    pub(super) fn new(own: usize) -> Self {
        Self {
            own,
            index: HashMap::new(),
            copied: Vec::new(),
        }
    }

    pub(super) fn local(&mut self, g: usize) -> u32 {
        *self.index.entry(g).or_insert_with(|| {
            self.copied.push(g);
            (self.own + self.copied.len() - 1) as u32
        })
    }
}

/// Pass 3b: an object's elements (its own range, then the copies of those it
/// uses from elsewhere) and its mesh. By Blender's rule (`blender`), its
/// positions in the order the file declares them, copies among its own, as
/// Blender's importer keeps them, and its corners without a UV or normal
/// pointing at one of zeros, which Blender's importer gives them.
pub(super) fn build(
    plan: Plan,
    mut arrays: Arrays,
    found: &[Foreign],
    blocks: &[Block],
    elements: &Elements,
    colors: &Colors,
    blender: bool,
) -> Mesh<'static> {
    let range = |kind: Kind| plan.first[kind as usize]..plan.end[kind as usize];
    // Positions: copies in first-use order over faces, then lines.
    let mut copies = Copies::new(range(Kind::Position).len());
    for r in found.iter().flat_map(|f| &f.positions) {
        arrays.position_indices[r.slot] = copies.local(r.element);
    }
    for r in found.iter().flat_map(|f| &f.edge_points) {
        arrays.edges[r.slot / 2][r.slot % 2] = copies.local(r.element);
    }
    for r in found.iter().flat_map(|f| &f.points) {
        arrays.points[r.slot] = copies.local(r.element);
    }
    // The `p` statements' points, then the positions of skipped faces
    // Blender's importer keeps.
    let own = range(Kind::Position);
    let mut points = std::mem::take(&mut arrays.points);
    points.extend(
        found
            .iter()
            .flat_map(|f| &f.kept)
            .map(|&g| match own.contains(&g) {
                true => (g - own.start) as u32,
                false => copies.local(g),
            }),
    );
    let positions = elements.gather(
        blocks,
        Kind::Position,
        |b| &b.positions,
        range(Kind::Position),
        &copies.copied,
    );
    // (By Blender's rule, -1s for a vertex without a color: its importer
    // tells them apart.)
    let none = if blender { [-1.0; 3] } else { [0.0; 3] };
    let colors = match colors {
        Colors::None => None,
        Colors::Vertex => {
            // An object none of whose vertices has a color has no colors.
            let colored = elements.gather(
                blocks,
                Kind::Position,
                |b| &b.colored,
                range(Kind::Position),
                &copies.copied,
            );
            colored.contains(&true).then(|| {
                let mut colors = elements.gather(
                    blocks,
                    Kind::Position,
                    |b| &b.colors,
                    range(Kind::Position),
                    &copies.copied,
                );
                for (color, _) in colors.iter_mut().zip(&colored).filter(|(_, c)| !**c) {
                    *color = none;
                }
                colors
            })
        }
        Colors::Mrgb(all) => {
            let own = range(Kind::Position).chain(copies.copied.iter().copied());
            Some(own.map(|g| all.get(g).copied().unwrap_or(none)).collect())
        }
    };
    let (positions, colors) = if blender && !copies.copied.is_empty() {
        let globals: Vec<usize> = range(Kind::Position)
            .chain(copies.copied.iter().copied())
            .collect();
        let mut order: Vec<u32> = (0..globals.len() as u32).collect();
        order.sort_unstable_by_key(|&i| globals[i as usize]);
        let mut local = vec![0u32; order.len()];
        for (new, &old) in order.iter().enumerate() {
            local[old as usize] = new as u32;
        }
        for v in arrays
            .position_indices
            .iter_mut()
            .chain(arrays.edges.iter_mut().flatten())
            .chain(&mut points)
        {
            *v = local[*v as usize];
        }
        let permuted = |values: Vec<[f32; 3]>| -> Vec<[f32; 3]> {
            order.iter().map(|&i| values[i as usize]).collect()
        };
        (permuted(positions), colors.map(permuted))
    } else {
        (positions, colors)
    };
    let attribute =
        |kind: Kind, indices: &mut Option<Vec<u32>>, get: fn(&Foreign) -> &Vec<Reference>| {
            let indices = indices.as_mut()?;
            let mut copies = Copies::new(range(kind).len());
            for r in found.iter().flat_map(get) {
                indices[r.slot] = copies.local(r.element);
            }
            Some(copies.copied)
        };
    let uv_copies = attribute(Kind::Uv, &mut arrays.uv_indices, |f| &f.uvs);
    let normal_copies = attribute(Kind::Normal, &mut arrays.normal_indices, |f| &f.normals);
    let mut uvs =
        uv_copies.map(|c| elements.gather(blocks, Kind::Uv, |b| &b.uvs, range(Kind::Uv), &c));
    let mut normals = normal_copies.map(|c| {
        elements.gather(
            blocks,
            Kind::Normal,
            |b| &b.normals,
            range(Kind::Normal),
            &c,
        )
    });
    if blender {
        // No corner with a UV (those that had one were in faces skipped): no
        // UVs, as Blender's importer makes no layer then.
        if let Some(indices) = &arrays.uv_indices
            && indices.iter().all(|&i| i == ABSENT)
        {
            (arrays.uv_indices, uvs) = (None, None);
        }
        zeros_for_absent(arrays.uv_indices.as_mut(), uvs.as_mut());
        zeros_for_absent(arrays.normal_indices.as_mut(), normals.as_mut());
    }
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
        points: (!points.is_empty()).then(|| {
            // (Kept positions come once each, in order.)
            if blender {
                points.sort_unstable();
                points.dedup();
            }
            points.into()
        }),
    }
}

/// Points the corners without an element ([`ABSENT`]) at one of zeros,
/// appended to `values`.
fn zeros_for_absent<T: Default>(indices: Option<&mut Vec<u32>>, values: Option<&mut Vec<T>>) {
    let (Some(indices), Some(values)) = (indices, values) else {
        return;
    };
    let zeros = values.len() as u32;
    let mut any = false;
    for index in indices.iter_mut().filter(|i| **i == ABSENT) {
        *index = zeros;
        any = true;
    }
    if any {
        values.push(T::default());
    }
}
