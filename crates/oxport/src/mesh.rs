//! The scene model: meshes as structure of arrays, in the OBJ model.
//!
//! Every array is a [`Cow`], so a mesh can borrow the caller's memory (a numpy
//! array, a Blender buffer) without a copy, or own what a reader produced.
//! Indices are 0-based and local to their mesh; writers add the offsets.

use std::borrow::Cow;

use crate::{Error, Result};

/// A polygon mesh.
///
/// Face `i` uses corners `face_offsets[i]..face_offsets[i + 1]`; corner `c`
/// uses position `position_indices[c]` and, where present, `uv_indices[c]`
/// and `normal_indices[c]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh<'a> {
    /// The object's name (`o` line).
    pub name: Cow<'a, str>,
    /// Vertex positions.
    pub positions: Cow<'a, [[f32; 3]]>,
    /// One color per position, written as `v x y z r g b`.
    pub colors: Option<Cow<'a, [[f32; 3]]>>,
    /// Texture coordinates, indexed by `uv_indices`.
    pub uvs: Option<Cow<'a, [[f32; 2]]>>,
    /// Normals, indexed by `normal_indices`.
    pub normals: Option<Cow<'a, [[f32; 3]]>>,
    /// `F + 1` increasing offsets into the corner arrays, starting at 0.
    pub face_offsets: Cow<'a, [u32]>,
    /// Each corner's position.
    pub position_indices: Cow<'a, [u32]>,
    /// Each corner's texture coordinate (with `uvs`).
    pub uv_indices: Option<Cow<'a, [u32]>>,
    /// Each corner's normal (with `normals`).
    pub normal_indices: Option<Cow<'a, [u32]>>,
    /// Smooth group per face, 0 for flat; `None` writes no `s` statements.
    pub smooth: Option<Cow<'a, [u32]>>,
    /// The names of the materials the faces use.
    pub materials: Vec<Cow<'a, str>>,
    /// Index into `materials` per face; `None` writes no `usemtl`.
    pub material_indices: Option<Cow<'a, [u32]>>,
    /// The names of the groups the faces are in (`g NAME`).
    pub groups: Vec<Cow<'a, str>>,
    /// Index into `groups` per face, written as `g NAME` where it changes
    /// (after `s`, before `usemtl`); `None` writes no `g` within the mesh.
    pub group_indices: Option<Cow<'a, [u32]>>,
    /// Loose edges as pairs of position indices, written as `l a b`.
    pub edges: Option<Cow<'a, [[u32; 2]]>>,
    /// Positions the object has without faces or lines, written as `p a`:
    /// read by Blender's rule, those of the faces its importer skips, which
    /// it keeps as loose vertices.
    pub points: Option<Cow<'a, [u32]>>,
}

impl Mesh<'_> {
    /// The same mesh owning all its arrays (borrowed ones are copied).
    pub fn into_owned(self) -> Mesh<'static> {
        fn own<T: Clone>(values: Cow<'_, [T]>) -> Cow<'static, [T]> {
            Cow::Owned(values.into_owned())
        }
        Mesh {
            name: Cow::Owned(self.name.into_owned()),
            positions: own(self.positions),
            colors: self.colors.map(own),
            uvs: self.uvs.map(own),
            normals: self.normals.map(own),
            face_offsets: own(self.face_offsets),
            position_indices: own(self.position_indices),
            uv_indices: self.uv_indices.map(own),
            normal_indices: self.normal_indices.map(own),
            smooth: self.smooth.map(own),
            materials: self
                .materials
                .into_iter()
                .map(|m| Cow::Owned(m.into_owned()))
                .collect(),
            material_indices: self.material_indices.map(own),
            groups: self
                .groups
                .into_iter()
                .map(|g| Cow::Owned(g.into_owned()))
                .collect(),
            group_indices: self.group_indices.map(own),
            edges: self.edges.map(own),
            points: self.points.map(own),
        }
    }

    /// The number of faces.
    pub fn face_count(&self) -> usize {
        self.face_offsets.len().saturating_sub(1)
    }

    /// The number of face corners.
    pub fn corner_count(&self) -> usize {
        self.position_indices.len()
    }

    /// Checks that every index is in range and every array has the length it
    /// must have, so that writers can index without checks failing.
    pub fn validate(&self) -> Result<()> {
        let name = &self.name;
        let fail = |what: String| Err(Error::invalid(format!("mesh {name:?}: {what}")));
        let faces = self.face_count();
        let corners = self.corner_count();
        if self.face_offsets.is_empty() {
            if corners != 0 {
                return fail(format!(
                    "face_offsets is empty but position_indices has {corners} corners"
                ));
            }
        } else {
            if self.face_offsets[0] != 0 {
                return fail(format!(
                    "face_offsets must start at 0, not {}",
                    self.face_offsets[0]
                ));
            }
            if let Some(i) = self.face_offsets.windows(2).position(|w| w[0] >= w[1]) {
                return fail(format!(
                    "face_offsets must increase: face {i} goes from {} to {}",
                    self.face_offsets[i],
                    self.face_offsets[i + 1]
                ));
            }
            let last = *self.face_offsets.last().unwrap() as usize;
            if last != corners {
                return fail(format!(
                    "face_offsets ends at {last} but position_indices has {corners} corners"
                ));
            }
        }
        check_indices(
            "position_indices",
            &self.position_indices,
            self.positions.len(),
        )
        .or_else(fail)?;
        if let Some(colors) = &self.colors
            && colors.len() != self.positions.len()
        {
            return fail(format!(
                "colors has {} entries but positions has {}",
                colors.len(),
                self.positions.len()
            ));
        }
        check_attribute(
            "uv",
            self.uvs.as_deref(),
            self.uv_indices.as_deref(),
            corners,
        )
        .or_else(fail)?;
        check_attribute(
            "normal",
            self.normals.as_deref(),
            self.normal_indices.as_deref(),
            corners,
        )
        .or_else(fail)?;
        if let Some(smooth) = &self.smooth
            && smooth.len() != faces
        {
            return fail(format!(
                "smooth has {} entries for {faces} faces",
                smooth.len()
            ));
        }
        for (what, indices, names) in [
            (
                "material_indices",
                &self.material_indices,
                self.materials.len(),
            ),
            ("group_indices", &self.group_indices, self.groups.len()),
        ] {
            if let Some(indices) = indices {
                if indices.len() != faces {
                    return fail(format!(
                        "{what} has {} entries for {faces} faces",
                        indices.len()
                    ));
                }
                check_indices(what, indices, names).or_else(fail)?;
            }
        }
        if let Some(edges) = &self.edges {
            let count = self.positions.len();
            if let Some((i, edge)) = edges
                .iter()
                .enumerate()
                .find(|(_, e)| e[0] as usize >= count || e[1] as usize >= count)
            {
                return fail(format!(
                    "edges[{i}] = {edge:?} is out of range for {count} positions"
                ));
            }
        }
        if let Some(points) = &self.points {
            let count = self.positions.len();
            if let Some((i, point)) = points
                .iter()
                .enumerate()
                .find(|(_, p)| **p as usize >= count)
            {
                return fail(format!(
                    "points[{i}] = {point} is out of range for {count} positions"
                ));
            }
        }
        if self.name.contains(['\n', '\r']) {
            return fail("the name contains a line break".into());
        }
        if let Some(m) = self.materials.iter().find(|m| m.contains(['\n', '\r'])) {
            return fail(format!("material name {m:?} contains a line break"));
        }
        if let Some(g) = self.groups.iter().find(|g| g.contains(['\n', '\r'])) {
            return fail(format!("group name {g:?} contains a line break"));
        }
        Ok(())
    }
}

fn check_indices(what: &str, indices: &[u32], count: usize) -> std::result::Result<(), String> {
    // One pass for the maximum vectorises; the position is only looked for on failure.
    let max = indices.iter().copied().max().unwrap_or(0) as usize;
    if !indices.is_empty() && max >= count {
        let i = indices.iter().position(|&v| v as usize >= count).unwrap();
        return Err(format!(
            "{what}[{i}] = {} is out of range for {count} entries",
            indices[i]
        ));
    }
    Ok(())
}

fn check_attribute<T>(
    what: &str,
    values: Option<&[T]>,
    indices: Option<&[u32]>,
    corners: usize,
) -> std::result::Result<(), String> {
    match (values, indices) {
        (None, None) => Ok(()),
        (Some(_), None) => Err(format!("{what}s are given without {what}_indices")),
        (None, Some(_)) => Err(format!("{what}_indices are given without {what}s")),
        (Some(values), Some(indices)) => {
            if indices.len() != corners {
                return Err(format!(
                    "{what}_indices has {} entries for {corners} corners",
                    indices.len()
                ));
            }
            check_indices(&format!("{what}_indices"), indices, values.len())
        }
    }
}

/// A free-form B-spline curve (`cstype bspline`), as OBJ files hold them
/// after the meshes: its control points, degree, parameter range, control
/// indices (relative: `-1` is the last point declared) and knots. How its
/// statements are laid out is the writer's dialect (`obj::CurveLayout`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Curve {
    /// The object's name.
    pub name: String,
    /// The control points.
    pub points: Vec<[f32; 3]>,
    /// The degree (`deg`).
    pub degree: u32,
    /// `curv`'s parameter range.
    pub range: [f32; 2],
    /// The control points of `curv`, relative to the last declared.
    pub controls: Vec<i64>,
    /// `parm u`'s knots.
    pub knots: Vec<f32>,
}

/// A texture map of a material (`map_Kd -s 2 2 1 textures/wood.png`): the
/// statement, the image and the options (each `None` where the line has
/// none), as values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextureMap {
    /// The statement: `map_Kd`, `map_Ks`, `map_Bump`, `bump`, `disp`, `refl`, ...
    pub key: String,
    /// The image's path as the file names it.
    pub path: String,
    /// `-o u v w`: the image's origin offset.
    pub offset: Option<[f32; 3]>,
    /// `-s u v w`: the image's scale.
    pub scale: Option<[f32; 3]>,
    /// `-t u v w`: turbulence.
    pub turbulence: Option<[f32; 3]>,
    /// `-mm base gain`: the range of a scalar texture's values.
    pub range: Option<[f32; 2]>,
    /// `-bm`: the bump multiplier.
    pub bump_multiplier: Option<f32>,
    /// `-boost`: sharpening of mip-mapped images.
    pub boost: Option<f32>,
    /// `-texres`: the resolution the image is scaled to.
    pub resolution: Option<u32>,
    /// `-clamp on|off`
    pub clamp: Option<bool>,
    /// `-blendu on|off`
    pub blend_u: Option<bool>,
    /// `-blendv on|off`
    pub blend_v: Option<bool>,
    /// `-cc on|off`: color correction.
    pub color_correction: Option<bool>,
    /// `-imfchan`: the channel a scalar texture takes.
    pub channel: Option<Channel>,
    /// `-type`: a reflection map's projection.
    pub projection: Option<Projection>,
}

/// The channel of an image a scalar texture takes (`-imfchan`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// `r`
    Red,
    /// `g`
    Green,
    /// `b`
    Blue,
    /// `m`
    Matte,
    /// `l`
    Luminance,
    /// `z`
    Depth,
}

/// A reflection map's projection (`-type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Projection {
    /// `sphere`
    Sphere,
    /// `cube_top`
    CubeTop,
    /// `cube_bottom`
    CubeBottom,
    /// `cube_front`
    CubeFront,
    /// `cube_back`
    CubeBack,
    /// `cube_left`
    CubeLeft,
    /// `cube_right`
    CubeRight,
}

/// A material as the MTL format describes it. A property that is `None` has
/// no line (Blender leaves out those that a texture map gives).
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// `newmtl`'s name.
    pub name: String,
    /// Specular exponent `Ns`.
    pub specular_exponent: Option<f32>,
    /// `Ka`
    pub ambient: Option<[f32; 3]>,
    /// `Kd`
    pub diffuse: Option<[f32; 3]>,
    /// `Ks`
    pub specular: Option<[f32; 3]>,
    /// `Ke`
    pub emissive: Option<[f32; 3]>,
    /// Index of refraction `Ni`.
    pub ior: Option<f32>,
    /// Dissolve `d` (1 = opaque).
    pub dissolve: Option<f32>,
    /// Illumination model `illum`.
    pub illum: Option<i32>,
    /// Roughness `Pr` (the PBR extensions Blender writes, after `illum`).
    pub roughness: Option<f32>,
    /// Metallic `Pm`.
    pub metallic: Option<f32>,
    /// Sheen `Ps`.
    pub sheen: Option<f32>,
    /// Clearcoat thickness `Pc`.
    pub clearcoat: Option<f32>,
    /// Clearcoat roughness `Pcr`.
    pub clearcoat_roughness: Option<f32>,
    /// Anisotropy `aniso`.
    pub anisotropy: Option<f32>,
    /// Anisotropy rotation `anisor`.
    pub anisotropy_rotation: Option<f32>,
    /// Transmission filter `Tf` (its color form).
    pub transmission_filter: Option<[f32; 3]>,
    /// The statements no field holds, kept as read (`KEY`, the rest of the
    /// line) and written after the fields above in this order.
    pub statements: Vec<(String, String)>,
    /// The texture maps, in file order.
    pub maps: Vec<TextureMap>,
}

impl Default for Material {
    /// Blender's values for a new material.
    fn default() -> Self {
        Material {
            name: String::new(),
            specular_exponent: Some(250.0),
            ambient: Some([1.0; 3]),
            diffuse: Some([0.8; 3]),
            specular: Some([0.5; 3]),
            emissive: Some([0.0; 3]),
            ior: Some(1.45),
            dissolve: Some(1.0),
            illum: Some(2),
            roughness: None,
            metallic: None,
            sheen: None,
            clearcoat: None,
            clearcoat_roughness: None,
            anisotropy: None,
            anisotropy_rotation: None,
            transmission_filter: None,
            statements: Vec::new(),
            maps: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn triangle() -> Mesh<'static> {
        Mesh {
            name: "tri".into(),
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]].into(),
            face_offsets: vec![0, 3].into(),
            position_indices: vec![0, 1, 2].into(),
            ..Mesh::default()
        }
    }

    #[test]
    fn a_valid_mesh_passes() {
        triangle().validate().unwrap();
        Mesh::default().validate().unwrap();
    }

    #[test]
    fn errors_name_the_mesh_the_array_and_the_entry() {
        let mut mesh = triangle();
        mesh.position_indices = vec![0, 1, 3].into();
        let message = mesh.validate().unwrap_err().to_string();
        assert_eq!(
            message,
            "invalid argument: mesh \"tri\": position_indices[2] = 3 is out of range for 3 entries"
        );

        let mut mesh = triangle();
        mesh.face_offsets = vec![0, 2, 2, 3].into();
        let message = mesh.validate().unwrap_err().to_string();
        assert!(
            message.contains("face_offsets must increase: face 1"),
            "{message}"
        );

        let mut mesh = triangle();
        mesh.points = Some(vec![2, 3].into());
        let message = mesh.validate().unwrap_err().to_string();
        assert!(
            message.contains("points[1] = 3 is out of range for 3 positions"),
            "{message}"
        );

        let mut mesh = triangle();
        mesh.uvs = Some(vec![[0.0; 2]].into());
        let message = mesh.validate().unwrap_err().to_string();
        assert!(
            message.contains("uvs are given without uv_indices"),
            "{message}"
        );

        let mut mesh = triangle();
        mesh.material_indices = Some(vec![0].into());
        let message = mesh.validate().unwrap_err().to_string();
        assert!(
            message.contains("material_indices[0] = 0 is out of range for 0"),
            "{message}"
        );

        let mut mesh = triangle();
        mesh.edges = Some(vec![[0, 7]].into());
        let message = mesh.validate().unwrap_err().to_string();
        assert!(message.contains("edges[0] = [0, 7]"), "{message}");
    }
}
