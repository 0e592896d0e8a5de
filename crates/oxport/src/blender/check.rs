//! The checks of a gathered mesh, before any work: every array against the
//! count it must match and every index against what it indexes, so that the
//! algorithms after it index without failing and the mesh they build is
//! valid. Errors name the array as Python's `oxport.blender.mesh` names it.

use crate::{Error, Result};

use super::{Exporter, Gathered, NormalSource};

/// Checks every array of `g`.
pub(super) fn check(g: &Gathered) -> Result<()> {
    let vertices = g.positions.len();
    let corners = g.corner_vertices.len();
    let faces = g.face_starts.len();
    if vertices + faces > u32::MAX as usize || corners > u32::MAX as usize {
        return Err(Error::Unsupported(
            "more vertices, faces or loops than 32-bit indices can number".into(),
        ));
    }
    match g.face_starts {
        [] if corners > 0 => {
            return invalid("face_starts", format!("no faces for {corners} loops"));
        }
        [first, ..] if *first != 0 => {
            return invalid(
                "face_starts",
                format!("the first face starts at loop {first}, not 0"),
            );
        }
        _ => {}
    }
    if let Some(f) = g.face_starts.windows(2).position(|w| w[0] >= w[1]) {
        return invalid(
            "face_starts",
            format!("face {} does not start after face {f}", f + 1),
        );
    }
    if let Some(&last) = g.face_starts.last()
        && last as usize >= corners
    {
        return invalid(
            "face_starts",
            format!("the last face starts at loop {last} of {corners}"),
        );
    }
    indices("corner_vertices", g.corner_vertices, vertices, "vertex")?;
    match g.normals {
        Some(NormalSource::Corners(normals)) => {
            length("corner_normals", normals.len(), corners, "loops")?
        }
        Some(NormalSource::Vertices(normals)) => {
            length("vertex_normals", normals.len(), vertices, "vertices")?
        }
        Some(NormalSource::Faces(normals)) => {
            if g.exporter == Exporter::Blender34 {
                return invalid(
                    "face_normals",
                    "Blender 3.4's exporter takes corner or vertex normals".into(),
                );
            }
            length("face_normals", normals.len(), faces, "faces")?
        }
        None => {}
    }
    if let Some(uvs) = g.corner_uvs {
        length("corner_uvs", uvs.len(), corners, "loops")?;
    }
    if let Some(smooth) = g.smooth {
        length("smooth", smooth.len(), faces, "faces")?;
    }
    if let Some(materials) = g.material_indices {
        length("material_indices", materials.len(), faces, "faces")?;
    }
    if let Some(edges) = g.edges {
        indices("edges", edges.as_flattened(), vertices, "vertex")?;
    }
    if let Some(colors) = g.vertex_colors {
        length("vertex_colors", colors.len(), vertices, "vertices")?;
    }
    if let Some(colors) = g.corner_colors {
        length("corner_colors", colors.len(), corners, "loops")?;
    }
    if let Some(colors) = g.corner_colors_srgb8 {
        length("corner_colors_srgb8", colors.len(), corners, "loops")?;
    }
    if let Some(input) = &g.smooth_groups {
        length("corner_edges", input.corner_edges.len(), corners, "loops")?;
        indices(
            "corner_edges",
            input.corner_edges,
            input.sharp_edges.len(),
            "edge",
        )?;
    }
    if let Some(input) = &g.vertex_groups {
        if g.material_groups.is_some() {
            return Err(Error::Unsupported(
                "vertex groups and material groups at once".into(),
            ));
        }
        length(
            "vertex_group_offsets",
            input.offsets.len(),
            vertices + 1,
            "vertices + 1",
        )?;
        let entries = input.groups.len();
        length(
            "vertex_group_weights",
            input.weights.len(),
            entries,
            "vertex_group_indices",
        )?;
        if input.offsets.first().is_some_and(|&o| o != 0)
            || input.offsets.windows(2).any(|w| w[0] > w[1])
            || input.offsets.last().is_some_and(|&o| o as usize != entries)
        {
            return invalid(
                "vertex_group_offsets",
                format!("must rise from 0 to the {entries} entries of vertex_group_indices"),
            );
        }
        // An index past the names is a weight in no known group: Blender skips those too.
    }
    Ok(())
}

#[cold]
fn invalid(argument: &str, what: String) -> Result<()> {
    Err(Error::invalid(format!("{argument}: {what}")))
}

/// `argument` must have `expected` entries, one per `per`.
fn length(argument: &str, len: usize, expected: usize, per: &str) -> Result<()> {
    if len != expected {
        return invalid(argument, format!("{len} entries for {expected} {per}"));
    }
    Ok(())
}

/// Every entry of `argument` must be below `count`.
fn indices(argument: &str, values: &[u32], count: usize, what: &str) -> Result<()> {
    match values.iter().position(|&v| v as usize >= count) {
        Some(i) => invalid(
            argument,
            format!("entry {i} is {what} {} of {count}", values[i]),
        ),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blender::{SmoothGroupInput, VertexGroupInput, mesh};
    use crate::pipeline::Pipeline;

    const TRIANGLE: [[f32; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

    fn triangle() -> Gathered<'static> {
        Gathered {
            name: "t".into(),
            scale: 1.0,
            positions: &TRIANGLE,
            corner_vertices: &[0, 1, 2],
            face_starts: &[0],
            ..Gathered::default()
        }
    }

    /// The error of `g`, which must be one message naming `argument`.
    fn refused(g: Gathered, argument: &str) {
        let error = mesh(&g, &Pipeline::new(None).unwrap()).expect_err(argument);
        let text = error.to_string();
        assert!(
            text.contains(&format!("object \"t\": {argument}: ")),
            "{text}"
        );
        assert_eq!(text.matches("invalid argument").count(), 1, "{text}");
    }

    #[test]
    fn every_array_is_checked_and_named() {
        assert!(mesh(&triangle(), &Pipeline::new(None).unwrap()).is_ok());
        refused(
            Gathered {
                face_starts: &[],
                ..triangle()
            },
            "face_starts",
        );
        refused(
            Gathered {
                face_starts: &[1],
                ..triangle()
            },
            "face_starts",
        );
        refused(
            Gathered {
                face_starts: &[0, 0],
                ..triangle()
            },
            "face_starts",
        );
        refused(
            Gathered {
                face_starts: &[0, 3],
                ..triangle()
            },
            "face_starts",
        );
        refused(
            Gathered {
                corner_vertices: &[0, 1, 3],
                ..triangle()
            },
            "corner_vertices",
        );
        refused(
            Gathered {
                edges: Some(&[[0, 3]]),
                ..triangle()
            },
            "edges",
        );
        let two = [[0.0; 3]; 2];
        refused(
            Gathered {
                normals: Some(NormalSource::Corners(&two)),
                ..triangle()
            },
            "corner_normals",
        );
        refused(
            Gathered {
                normals: Some(NormalSource::Vertices(&two)),
                ..triangle()
            },
            "vertex_normals",
        );
        refused(
            Gathered {
                corner_uvs: Some(&[[0.0; 2]; 2]),
                ..triangle()
            },
            "corner_uvs",
        );
        refused(
            Gathered {
                smooth: Some(&[1, 1]),
                ..triangle()
            },
            "smooth",
        );
        refused(
            Gathered {
                material_indices: Some(&[]),
                ..triangle()
            },
            "material_indices",
        );
        refused(
            Gathered {
                vertex_colors: Some(&[[0.0; 4]]),
                ..triangle()
            },
            "vertex_colors",
        );
        refused(
            Gathered {
                corner_colors: Some(&[[0.0; 4]]),
                ..triangle()
            },
            "corner_colors",
        );
        refused(
            Gathered {
                corner_colors_srgb8: Some(&[[0.0; 4]]),
                ..triangle()
            },
            "corner_colors_srgb8",
        );
        let groups = |corner_edges| SmoothGroupInput {
            corner_edges,
            sharp_edges: &[0, 0, 0],
            bitflags: false,
        };
        refused(
            Gathered {
                smooth: Some(&[1]),
                smooth_groups: Some(groups(&[0, 1])),
                ..triangle()
            },
            "corner_edges",
        );
        refused(
            Gathered {
                smooth: Some(&[1]),
                smooth_groups: Some(groups(&[0, 1, 3])),
                ..triangle()
            },
            "corner_edges",
        );
        let weights = |offsets, groups, weights| VertexGroupInput {
            names: vec!["g".into()],
            offsets,
            groups,
            weights,
        };
        refused(
            Gathered {
                vertex_groups: Some(weights(&[0, 1, 1], &[0], &[1.0])),
                ..triangle()
            },
            "vertex_group_offsets",
        );
        refused(
            Gathered {
                vertex_groups: Some(weights(&[0, 1, 1, 1], &[0], &[])),
                ..triangle()
            },
            "vertex_group_weights",
        );
        refused(
            Gathered {
                vertex_groups: Some(weights(&[0, 2, 1, 1], &[0], &[1.0])),
                ..triangle()
            },
            "vertex_group_offsets",
        );
    }

    #[test]
    fn no_faces_and_no_loops_is_an_empty_mesh() {
        let g = Gathered {
            corner_vertices: &[],
            face_starts: &[],
            ..triangle()
        };
        let m = mesh(&g, &Pipeline::new(None).unwrap()).unwrap();
        assert_eq!(m.face_count(), 0);
        assert_eq!(m.positions.len(), 3);
    }
}
