//! Which Blender's OBJ exporter the bytes are made for. Its rules for meshes
//! changed in Blender 4.1, when meshes began to keep their normals on one
//! domain (faces, points or corners); those for NURBS curves in 4.5 and 5.0:
//!
//! | rule | 3.4 | 4.5 | 5.0 |
//! | --- | --- | --- | --- |
//! | normals | split normals per corner, merged in corner order | the mesh's normals domain, merged in the order of that domain (faces; vertices with a face, by index; corners) | as 4.5 |
//! | UVs | merged per vertex within 0.0001 | equal UVs anywhere in the mesh merged, in corner order | as 4.5 |
//! | NURBS knots | evenly spaced, clamped for endpoint splines | Blender's knot vector; the range its inner knots span | the span of valid knots, points after `deg` |
//!
//! Blender 3.4, 4.5 and 5.0 are the versions checked against their own
//! exporters; a version between takes the rules of the checked version
//! below it, with the mesh rules cut at 4.1.

/// The exporter whose bytes are made. Ordered by version: a rule that began
/// with 4.1 holds for every exporter `>= Blender45`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exporter {
    /// Blender 3.4 (and up to 4.0).
    #[default]
    Blender34,
    /// Blender 4.5 LTS (and from 4.1).
    Blender45,
    /// Blender 5.0 (and later).
    Blender50,
}

impl Exporter {
    /// The exporter of Blender `major.minor`.
    pub fn of_version(major: u32, minor: u32) -> Exporter {
        if (major, minor) < (4, 1) {
            Exporter::Blender34
        } else if major < 5 {
            Exporter::Blender45
        } else {
            Exporter::Blender50
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
        assert_eq!(Exporter::of_version(5, 0), Exporter::Blender50);
        assert!(Exporter::Blender50 >= Exporter::Blender45);
    }
}
