//! Merging normals or UVs whose written text is the same, keeping each at its
//! first appearance in corner order: what Blender does with normals after
//! rounding them to four digits.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::mesh::Mesh;
use crate::pipeline::Pipeline;

use super::write::{Precision, WriteOptions};
use rayon::prelude::*;

/// Returns the meshes with normals and/or UVs merged as `options` asks.
pub(super) fn deduplicate<'m>(
    meshes: &'m [Mesh<'m>],
    options: &WriteOptions,
    pipeline: &Pipeline,
) -> Vec<Cow<'m, Mesh<'m>>> {
    let run = || {
        meshes
            .par_iter()
            .map(|mesh| {
                let normals =
                    options.deduplicate_normals && options.normals && mesh.normals.is_some();
                let uvs = options.deduplicate_uvs && options.uvs && mesh.uvs.is_some();
                if !normals && !uvs {
                    return Cow::Borrowed(mesh);
                }
                let mut merged = mesh.clone();
                if normals {
                    let (values, indices) = merge(
                        mesh.normals.as_deref().unwrap_or_default(),
                        mesh.normal_indices.as_deref().unwrap_or_default(),
                        options.normal_precision,
                    );
                    merged.normals = Some(values.into());
                    merged.normal_indices = Some(indices.into());
                }
                if uvs {
                    let (values, indices) = merge(
                        mesh.uvs.as_deref().unwrap_or_default(),
                        mesh.uv_indices.as_deref().unwrap_or_default(),
                        options.uv_precision,
                    );
                    merged.uvs = Some(values.into());
                    merged.uv_indices = Some(indices.into());
                }
                Cow::Owned(merged)
            })
            .collect()
    };
    pipeline.install(run)
}

/// Values in order of first use by `indices`, keyed by their text (or their
/// bits for shortest precision), and the indices into them.
fn merge<const N: usize>(
    values: &[[f32; N]],
    indices: &[u32],
    precision: Precision,
) -> (Vec<[f32; N]>, Vec<u32>) {
    let mut text = Vec::with_capacity(64);
    let mut seen: HashMap<Box<[u8]>, u32> = HashMap::new();
    // Old index to new, so that each distinct old value is formatted once.
    let mut remap = vec![u32::MAX; values.len()];
    let mut merged = Vec::new();
    let new_indices = indices
        .iter()
        .map(|&old| {
            let slot = &mut remap[old as usize];
            if *slot == u32::MAX {
                let value = values[old as usize];
                text.clear();
                for x in value {
                    match precision {
                        Precision::Fixed(p) => {
                            crate::numfmt::write_fixed(&mut text, x, usize::from(p))
                        }
                        Precision::Shortest => text.extend_from_slice(&x.to_bits().to_le_bytes()),
                    }
                    text.push(b' ');
                }
                let next = merged.len() as u32;
                *slot = *seen.entry(text.as_slice().into()).or_insert_with(|| {
                    merged.push(value);
                    next
                });
            }
            *slot
        })
        .collect();
    (merged, new_indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_first_appearance_of_equal_text() {
        let values = [
            [0.0, 0.0, 1.0],
            [0.5, 0.5, 0.0],
            [0.000_01, 0.0, 1.0],
            [0.5, 0.5, 0.0],
        ];
        let (merged, indices) = merge(&values, &[1, 0, 2, 3, 1], Precision::Fixed(4));
        assert_eq!(merged, vec![[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]);
        assert_eq!(indices, vec![0, 1, 1, 0, 0]);
        let (merged, _) = merge(&values, &[0, 2], Precision::Shortest);
        assert_eq!(merged.len(), 2);
    }
}
