//! Procedural scenes for the demo, the tests and the benchmarks: deterministic
//! for a given size and seed, on every platform.

use crate::mesh::{Material, Mesh};

/// A small, fast, seeded generator (SplitMix64): reproducible scenes need no more.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `[low, high)`.
    pub fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit()
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }
}

/// A smooth UV sphere with `2^(level+1)` segments and `2^level` rings:
/// `2^(2 level + 1)` faces (level 10: 2,097,152 faces), triangle fans at the
/// poles, quads elsewhere, one UV per grid point, one normal per vertex.
///
/// # Panics
///
/// If `level` is not in `1..=12`.
pub fn sphere(level: u32) -> Mesh<'static> {
    assert!(
        (1..=12).contains(&level),
        "sphere level {level} is not in 1..=12"
    );
    let segments = 1u32 << (level + 1);
    let rings = 1u32 << level;
    let mut positions = Vec::with_capacity(((rings - 1) * segments + 2) as usize);
    positions.push([0.0, 0.0, 1.0]);
    for i in 1..rings {
        let theta = std::f32::consts::PI * i as f32 / rings as f32;
        for j in 0..segments {
            let phi = std::f32::consts::TAU * j as f32 / segments as f32;
            positions.push([
                theta.sin() * phi.cos(),
                theta.sin() * phi.sin(),
                theta.cos(),
            ]);
        }
    }
    positions.push([0.0, 0.0, -1.0]);
    let south = positions.len() as u32 - 1;
    // Vertex index of ring i (1..rings), segment j.
    let vertex = |i: u32, j: u32| 1 + (i - 1) * segments + j % segments;
    // UV grid of (rings + 1) x (segments + 1) points.
    let mut uvs = Vec::with_capacity(((rings + 1) * (segments + 1)) as usize);
    for i in 0..=rings {
        for j in 0..=segments {
            uvs.push([j as f32 / segments as f32, 1.0 - i as f32 / rings as f32]);
        }
    }
    let uv = |i: u32, j: u32| i * (segments + 1) + j;
    let faces = (rings * segments) as usize;
    let mut face_offsets = Vec::with_capacity(faces + 1);
    let mut position_indices = Vec::with_capacity(faces * 4);
    let mut uv_indices = Vec::with_capacity(faces * 4);
    face_offsets.push(0);
    for i in 0..rings {
        for j in 0..segments {
            let corners: &[(u32, u32, u32)] = if i == 0 {
                &[
                    (0, 0, j),
                    (vertex(1, j), 1, j),
                    (vertex(1, j + 1), 1, j + 1),
                ]
            } else if i == rings - 1 {
                &[
                    (vertex(i, j), i, j),
                    (south, i + 1, j),
                    (vertex(i, j + 1), i, j + 1),
                ]
            } else {
                &[
                    (vertex(i, j), i, j),
                    (vertex(i + 1, j), i + 1, j),
                    (vertex(i + 1, j + 1), i + 1, j + 1),
                    (vertex(i, j + 1), i, j + 1),
                ]
            };
            for &(v, ui, uj) in corners {
                position_indices.push(v);
                uv_indices.push(uv(ui, uj));
            }
            face_offsets.push(position_indices.len() as u32);
        }
    }
    let normals = positions.clone();
    Mesh {
        name: format!("sphere_{level}").into(),
        positions: positions.into(),
        uvs: Some(uvs.into()),
        normals: Some(normals.into()),
        normal_indices: Some(position_indices.clone().into()),
        uv_indices: Some(uv_indices.into()),
        position_indices: position_indices.into(),
        face_offsets: face_offsets.into(),
        smooth: Some(vec![1; faces].into()),
        ..Mesh::default()
    }
}

/// The 16 materials of [`city`].
pub fn city_materials(seed: u64) -> Vec<Material> {
    let mut rng = Rng::new(seed ^ 0x6d61_7465_7269_616c);
    (0..16)
        .map(|i| Material {
            name: format!("material_{i:02}"),
            diffuse: Some([rng.unit(), rng.unit(), rng.unit()]),
            specular_exponent: Some(360.0),
            ior: Some(1.0),
            ..Material::default()
        })
        .collect()
}

/// `objects` buildings: prisms with 3 to 40 sides (n-gon caps, quad walls),
/// 1 to 32 floors (about 90 kB of OBJ each, like the objects of Blender's
/// splash scenes), each using up to four of 16 materials, faces smooth or
/// flat at random, UVs on three objects in four, randomly placed.
pub fn city(objects: usize, seed: u64) -> Vec<Mesh<'static>> {
    let mut rng = Rng::new(seed);
    let materials = city_materials(seed);
    (0..objects)
        .map(|i| building(i, &mut rng, &materials))
        .collect()
}

fn building(index: usize, rng: &mut Rng, materials: &[Material]) -> Mesh<'static> {
    let sides = 3 + rng.below(38);
    let floors = 1 + rng.below(32);
    let (cx, cy) = (rng.range(-500.0, 500.0), rng.range(-500.0, 500.0));
    let radius = rng.range(2.0, 20.0);
    let height = rng.range(2.5, 4.0);
    let twist = rng.range(0.0, std::f32::consts::TAU);
    let mut positions = Vec::new();
    for floor in 0..=floors {
        for s in 0..sides {
            let a = twist + std::f32::consts::TAU * s as f32 / sides as f32;
            let r = radius * (1.0 + rng.range(-0.03, 0.03));
            positions.push([cx + r * a.cos(), cy + r * a.sin(), floor as f32 * height]);
        }
    }
    let at = |floor: u32, s: u32| floor * sides + s % sides;
    let mut face_offsets = vec![0u32];
    let mut position_indices = Vec::new();
    let mut uv_indices = Vec::new();
    let mut uvs = Vec::new();
    let mut face = |corners: &[u32], position_indices: &mut Vec<u32>| {
        for &c in corners {
            uv_indices.push(uvs.len() as u32);
            let [x, y, z] = positions[c as usize];
            uvs.push([
                (x - cx) / (2.0 * radius) + 0.5,
                (y - cy + z) / (2.0 * radius) + 0.5,
            ]);
            position_indices.push(c);
        }
        face_offsets.push(position_indices.len() as u32);
    };
    let bottom: Vec<u32> = (0..sides).rev().map(|s| at(0, s)).collect();
    face(&bottom, &mut position_indices);
    for floor in 0..floors {
        for s in 0..sides {
            face(
                &[
                    at(floor, s),
                    at(floor, s + 1),
                    at(floor + 1, s + 1),
                    at(floor + 1, s),
                ],
                &mut position_indices,
            );
        }
    }
    let top: Vec<u32> = (0..sides).map(|s| at(floors, s)).collect();
    face(&top, &mut position_indices);
    let faces = face_offsets.len() - 1;

    // Normals: the face normal for flat faces, the direction from the axis for smooth ones.
    let smooth: Vec<u32> = (0..faces).map(|_| u32::from(rng.unit() < 0.7)).collect();
    let mut normals = Vec::new();
    let mut normal_indices = Vec::with_capacity(position_indices.len());
    for f in 0..faces {
        let corners = &position_indices[face_offsets[f] as usize..face_offsets[f + 1] as usize];
        if smooth[f] == 1 {
            for &c in corners {
                let [x, y, z] = positions[c as usize];
                let up = if z == 0.0 {
                    -0.5
                } else if z >= floors as f32 * height {
                    0.5
                } else {
                    0.0
                };
                normal_indices.push(normals.len() as u32);
                normals.push(normalize([x - cx, y - cy, up * radius]));
            }
        } else {
            let n = face_normal(&positions, corners);
            normal_indices.extend(std::iter::repeat_n(normals.len() as u32, corners.len()));
            normals.push(n);
        }
    }
    let used = 1 + rng.below(4) as usize;
    let first = rng.below(16) as usize;
    let names = (0..used)
        .map(|k| materials[(first + 5 * k) % 16].name.clone().into())
        .collect();
    let material_indices: Vec<u32> = (0..faces).map(|f| (f * used / faces) as u32).collect();
    let has_uvs = index % 4 != 3;
    Mesh {
        name: format!("building_{index:05}").into(),
        positions: positions.into(),
        uvs: has_uvs.then(|| uvs.into()),
        uv_indices: has_uvs.then(|| uv_indices.into()),
        normals: Some(normals.into()),
        normal_indices: Some(normal_indices.into()),
        face_offsets: face_offsets.into(),
        position_indices: position_indices.into(),
        smooth: Some(smooth.into()),
        materials: names,
        material_indices: Some(material_indices.into()),
        ..Mesh::default()
    }
}

fn normalize([x, y, z]: [f32; 3]) -> [f32; 3] {
    let length = (x * x + y * y + z * z).sqrt();
    if length == 0.0 {
        [0.0, 0.0, 1.0]
    } else {
        [x / length, y / length, z / length]
    }
}

/// Newell's method: robust for any planar polygon.
fn face_normal(positions: &[[f32; 3]], corners: &[u32]) -> [f32; 3] {
    let mut n = [0.0f32; 3];
    for (k, &c) in corners.iter().enumerate() {
        let a = positions[c as usize];
        let b = positions[corners[(k + 1) % corners.len()] as usize];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    normalize(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphere_counts_and_validity() {
        let mesh = sphere(3);
        assert_eq!(mesh.face_count(), 128);
        assert_eq!(mesh.positions.len(), 7 * 16 + 2);
        mesh.validate().unwrap();
    }

    #[test]
    fn city_is_valid_and_reproducible() {
        let a = city(50, 7);
        assert_eq!(a.len(), 50);
        a.iter().try_for_each(Mesh::validate).unwrap();
        assert_eq!(a, city(50, 7));
        assert_ne!(a, city(50, 8));
        assert!(a.iter().any(|m| m.uvs.is_none()));
        assert!(
            a.iter()
                .any(|m| m.face_offsets.windows(2).any(|w| w[1] - w[0] > 4))
        );
    }
}
