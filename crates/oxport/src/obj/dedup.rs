//! Merging normals or UVs whose written text is the same, keeping each at its
//! first appearance in corner order: what Blender does with normals after
//! rounding them to four digits.

use std::borrow::Cow;

use crate::merge::Item;
use crate::mesh::Mesh;
use crate::pipeline::Pipeline;

use super::precision::Precision;

/// Returns the meshes with normals merged by their text at
/// `normals`' precision, and UVs at `uvs`' (None: not merged).
pub(super) fn deduplicate<'m>(
    meshes: &'m [Mesh<'m>],
    normals: Option<Precision>,
    uvs: Option<Precision>,
    pipeline: &Pipeline,
) -> Vec<Cow<'m, Mesh<'m>>> {
    pipeline.map(meshes.iter().collect(), |mesh| {
        let normals = normals.filter(|_| mesh.normals.is_some());
        let uvs = uvs.filter(|_| mesh.uvs.is_some());
        if normals.is_none() && uvs.is_none() {
            return Cow::Borrowed(mesh);
        }
        let mut merged = mesh.clone();
        if let Some(precision) = normals {
            let (values, indices) = merge(
                mesh.normals.as_deref().unwrap_or_default(),
                mesh.normal_indices.as_deref().unwrap_or_default(),
                precision,
                pipeline,
            );
            merged.normals = Some(values.into());
            merged.normal_indices = Some(indices.into());
        }
        if let Some(precision) = uvs {
            let (values, indices) = merge(
                mesh.uvs.as_deref().unwrap_or_default(),
                mesh.uv_indices.as_deref().unwrap_or_default(),
                precision,
                pipeline,
            );
            merged.uvs = Some(values.into());
            merged.uv_indices = Some(indices.into());
        }
        Cow::Owned(merged)
    })
}

/// Values in order of first use by `indices`, merged when their text (or
/// their bits, for shortest precision) is the same, and the indices into
/// them: [`crate::merge::merge`], with equal texts numbered first (a sort,
/// not a hash table).
fn merge<const N: usize>(
    values: &[[f32; N]],
    indices: &[u32],
    precision: Precision,
    pipeline: &Pipeline,
) -> (Vec<[f32; N]>, Vec<u32>) {
    // Each value's text, once, in one buffer.
    let mut text = Vec::with_capacity(values.len() * N * 8);
    let mut ends = Vec::with_capacity(values.len());
    for value in values {
        for &x in value {
            match precision {
                Precision::Fixed(p) => crate::numfmt::write_fixed(&mut text, x, usize::from(p)),
                Precision::Shortest => text.extend_from_slice(&x.to_bits().to_le_bytes()),
            }
            text.push(b' ');
        }
        ends.push(text.len());
    }
    let text_of = |i: usize| &text[if i == 0 { 0 } else { ends[i - 1] }..ends[i]];
    // Values of one text share an id: the first of them in a sort by text.
    let mut order: Vec<u32> = (0..values.len() as u32).collect();
    // A comparison reads two texts (of about 8 bytes a number).
    pipeline.sort_unstable_by(&mut order, 16 * N, |&a, &b| {
        text_of(a as usize).cmp(text_of(b as usize))
    });
    let mut id = vec![0u32; values.len()];
    for group in order.chunk_by(|&a, &b| text_of(a as usize) == text_of(b as usize)) {
        for &i in group {
            id[i as usize] = group[0];
        }
    }
    crate::merge::merge(
        indices.len(),
        |i| {
            let old = indices[i] as usize;
            Item {
                slot: i,
                vertex: old,
                value: values[old],
                key: Some(u64::from(id[old])),
            }
        },
        values.len(),
        indices.len(),
        pipeline,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::Pipeline;

    #[test]
    fn keeps_first_appearance_of_equal_text() {
        let values = [
            [0.0, 0.0, 1.0],
            [0.5, 0.5, 0.0],
            [0.000_01, 0.0, 1.0],
            [0.5, 0.5, 0.0],
        ];
        let (merged, indices) = merge(
            &values,
            &[1, 0, 2, 3, 1],
            Precision::Fixed(4),
            &Pipeline::new(None).unwrap(),
        );
        assert_eq!(merged, vec![[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]);
        assert_eq!(indices, vec![0, 1, 1, 0, 0]);
        let (merged, _) = merge(
            &values,
            &[0, 2],
            Precision::Shortest,
            &Pipeline::new(None).unwrap(),
        );
        assert_eq!(merged.len(), 2);
    }

    #[test]
    fn equals_the_rule_spelled_out_on_many_values() {
        // Values on a coarse grid (many equal texts, and -0.0 beside 0.0),
        // used in a scattered order.
        let mut state = 12345u32;
        let mut next = || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            state >> 8
        };
        let values: Vec<[f32; 2]> = (0..5000)
            .map(|_| {
                [
                    (next() % 41) as f32 / 8.0 - 2.5,
                    ((next() % 3) as f32 - 1.0) * 1e-5,
                ]
            })
            .collect();
        let indices: Vec<u32> = (0..20_000).map(|_| next() % 5000).collect();
        let (merged, new_indices) = merge(
            &values,
            &indices,
            Precision::Fixed(4),
            &Pipeline::new(None).unwrap(),
        );
        let text = |v: &[f32; 2]| {
            let mut out = Vec::new();
            for &x in v {
                crate::numfmt::write_fixed(&mut out, x, 4);
                out.push(b' ');
            }
            out
        };
        let mut seen = std::collections::HashMap::new();
        let mut expected = Vec::new();
        let expected_indices: Vec<u32> = indices
            .iter()
            .map(|&old| {
                let value = values[old as usize];
                *seen.entry(text(&value)).or_insert_with(|| {
                    expected.push(value);
                    expected.len() as u32 - 1
                })
            })
            .collect();
        assert_eq!(merged, expected);
        assert_eq!(new_indices, expected_indices);
        assert_eq!(merged.len(), 82); // 41 × ("-0.0000", "0.0000")
    }
}
