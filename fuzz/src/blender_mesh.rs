//! Builds Blender meshes from arbitrary arrays: never a panic, and every mesh
//! `blender::mesh` accepts is valid (its indices in range) and can be written.
//! Array lengths are drawn near the right ones and indices near their range,
//! so that both the checks and the algorithms behind them are reached.
//! `cargo +nightly fuzz run blender_mesh` in `fuzz/`.

use oxport::blender::{
    Exporter, Gathered, Matrix4, NormalSource, SmoothGroupInput, VertexGroupInput, mesh,
};
use oxport::pipeline::Pipeline;

/// Numbers taken from the front of the input (zeros once it is used up).
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    /// A value below `n + 2`: mostly in range, sometimes just past it.
    fn below(&mut self, n: usize) -> u32 {
        self.u32() % (n as u32 + 2)
    }

    /// `right`, or now and then a length one off.
    fn length(&mut self, right: usize) -> usize {
        match self.byte() % 16 {
            0 => right + 1,
            1 => right.saturating_sub(1),
            _ => right,
        }
    }

    fn f32(&mut self) -> f32 {
        // Small integers and fractions mostly, any bit pattern sometimes.
        match self.byte() % 8 {
            0 => f32::from_bits(self.u32()),
            _ => f32::from(self.byte() as i8) / 8.0,
        }
    }

    fn floats<const N: usize>(&mut self, n: usize) -> Vec<[f32; N]> {
        (0..n)
            .map(|_| std::array::from_fn(|_| self.f32()))
            .collect()
    }

    fn indices(&mut self, n: usize, below: usize) -> Vec<u32> {
        (0..n).map(|_| self.below(below)).collect()
    }
}

/// One input: the checks the module describes (a panic is a failure).
pub fn run(data: &[u8]) {
    let mut input = Input(data);
    let flags = input.u32();
    let has = |bit: u32| flags & (1 << bit) != 0;
    let vertices = input.byte() as usize % 48;
    let faces = input.byte() as usize % 24;
    let positions = input.floats::<3>(vertices);
    // Faces of 1 to 5 corners, now and then a start out of order.
    let mut face_starts = Vec::with_capacity(faces);
    let mut corners = 0u32;
    for _ in 0..faces {
        face_starts.push(if input.byte() % 32 == 0 {
            input.below(8)
        } else {
            corners
        });
        corners += 1 + u32::from(input.byte() % 5);
    }
    let corners = if has(0) {
        input.byte() as usize % 8
    } else {
        corners as usize
    };
    let corner_vertices = input.indices(corners, vertices.max(1) - 1);
    let n = input.length(corners);
    let corner_normals = input.floats::<3>(n);
    let n = input.length(vertices);
    let vertex_normals = input.floats::<3>(n);
    let n = input.length(faces);
    let face_normals = input.floats::<3>(n);
    let n = input.length(corners);
    let corner_uvs = input.floats::<2>(n);
    let n = input.length(faces);
    let smooth: Vec<u32> = (0..n).map(|_| input.u32() % 3).collect();
    let n = input.length(faces);
    let material_indices = input.indices(n, 3);
    let edges: Vec<[u32; 2]> = (0..input.byte() % 4)
        .map(|_| [input.below(vertices), input.below(vertices)])
        .collect();
    let n = input.length(corners);
    let colors = input.floats::<4>(n);
    let n = input.length(vertices);
    let point_colors = input.floats::<4>(n);
    let edge_count = input.byte() as usize % 64;
    let n = input.length(corners);
    let corner_edges = input.indices(n, edge_count.max(1) - 1);
    let sharp_edges = input.indices(edge_count, 1);
    let mut offsets = vec![0u32];
    // One more than the vertices (or one off): vertex v has entries offsets[v]..offsets[v + 1].
    for _ in 0..input.length(vertices) {
        let next = offsets.last().unwrap() + u32::from(input.byte() % 3);
        offsets.push(next);
    }
    let entries = input.length(*offsets.last().unwrap() as usize);
    let groups = input.indices(entries, 3);
    let weights: Vec<f32> = (0..entries).map(|_| input.f32()).collect();
    let mut transform: Matrix4 = [[0.0; 4]; 4];
    for (i, column) in transform.iter_mut().enumerate() {
        column[i] = 1.0;
    }
    if has(1) {
        transform = std::array::from_fn(|_| std::array::from_fn(|_| input.f32()));
    }
    let gathered = Gathered {
        name: "fuzz".into(),
        transform: has(2).then_some(transform),
        scale: 1.0,
        positions: &positions,
        corner_vertices: &corner_vertices,
        face_starts: &face_starts,
        normals: match flags >> 3 & 3 {
            1 => Some(NormalSource::Corners(&corner_normals)),
            2 => Some(NormalSource::Vertices(&vertex_normals)),
            3 => Some(NormalSource::Faces(&face_normals)),
            _ => None,
        },
        corner_uvs: has(5).then_some(&corner_uvs[..]),
        smooth: has(6).then_some(&smooth[..]),
        material_indices: has(7).then_some(&material_indices[..]),
        materials: vec!["a".into(), "b".into()],
        edges: has(8).then_some(&edges[..]),
        smooth_groups: has(9).then_some(SmoothGroupInput {
            corner_edges: &corner_edges,
            sharp_edges: &sharp_edges,
            bitflags: has(10),
        }),
        material_groups: has(11).then(|| "fuzz".into()),
        vertex_groups: has(12).then(|| VertexGroupInput {
            names: vec!["g0".into(), "g1".into()],
            offsets: &offsets,
            groups: &groups,
            weights: &weights,
        }),
        corner_colors: has(13).then_some(&colors[..]),
        corner_colors_srgb8: has(14).then_some(&colors[..]),
        vertex_colors: has(15).then_some(&point_colors[..]),
        // Blender 3.4's rules, or 4.1+'s (normals by domain, UVs merged across the mesh).
        exporter: if has(16) {
            Exporter::Blender45
        } else {
            Exporter::Blender34
        },
    };
    let pipeline = Pipeline::new(Some(2)).expect("two threads");
    if let Ok(mesh) = mesh(&gathered, &pipeline) {
        mesh.validate()
            .expect("a mesh blender::mesh returns must be valid");
        let mut out = Vec::new();
        oxport::obj::write_to(&mut out, &[mesh], &oxport::obj::WriteOptions::default())
            .expect("what blender::mesh builds can be written");
    }
}
