//! Which Blender's OBJ exporter a mesh is built for. Its rules changed in
//! Blender 4.1, when meshes began to keep their normals on one domain
//! (faces, points or corners):
//!
//! | rule | 3.4 | 4.5, 5.0 |
//! | --- | --- | --- |
//! | normals | split normals per corner, merged in corner order | the mesh's normals domain, merged in the order of that domain (faces; vertices with a face, by index; corners) |
//! | UVs | merged per vertex within 0.0001 | equal UVs anywhere in the mesh merged, in corner order |
//!
//! Blender 3.4, 4.5 and 5.0 are the versions checked against their own
//! exporters; the versions between take the rules of their side of 4.1.

/// The exporter whose bytes a gathered mesh is built for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Exporter {
    /// Blender 3.4 (and up to 4.0).
    #[default]
    Blender34,
    /// Blender 4.5 LTS and 5.0 (and from 4.1).
    Blender45,
}

impl Exporter {
    /// The exporter of Blender `major.minor`.
    pub fn of_version(major: u32, minor: u32) -> Exporter {
        if (major, minor) < (4, 1) {
            Exporter::Blender34
        } else {
            Exporter::Blender45
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_fall_on_their_side_of_4_1() {
        assert_eq!(Exporter::of_version(3, 4), Exporter::Blender34);
        assert_eq!(Exporter::of_version(4, 0), Exporter::Blender34);
        assert_eq!(Exporter::of_version(4, 1), Exporter::Blender45);
        assert_eq!(Exporter::of_version(4, 5), Exporter::Blender45);
        assert_eq!(Exporter::of_version(5, 0), Exporter::Blender45);
    }
}
