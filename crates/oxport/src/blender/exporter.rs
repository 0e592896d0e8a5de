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
//! | animation frames | `scene12.obj` | `scene0012.obj` | as 4.5 |
//! | nothing to export | an empty file | no file | as 4.5 |
//! | importer's `validate_meshes` | off | on | on |
//!
//! Every version writes spaces in object and material names as underscores
//! ([`exported_name`]), and its importer makes objects in the order of their
//! names, case aside (`import::imported_meshes`).
//!
//! Blender 3.4, 4.5 and 5.0 are the versions checked against their own
//! exporters; a version between takes the rules of the checked version
//! below it, with the mesh rules cut at 4.1.

use std::borrow::Cow;

use super::sort::std_sort;

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

impl Exporter {
    /// The file of one frame of an animation: `path` without its
    /// extension, the frame number (four digits from 4.1: `scene0012.obj`;
    /// as it is before: `scene12.obj`), `.obj`.
    pub fn frame_path(self, path: &str, frame: i64) -> String {
        // The extension of the file name, not of a folder.
        let name_start = path.rfind(['/', '\\']).map_or(0, |i| i + 1);
        let stem = match path[name_start..].rfind('.') {
            Some(dot) if dot > 0 => &path[..name_start + dot],
            _ => path,
        };
        if self >= Exporter::Blender45 {
            format!("{stem}{frame:04}.obj")
        } else {
            format!("{stem}{frame}.obj")
        }
    }

    /// Whether an export that finds nothing to write leaves a file: its
    /// header alone (and an empty MTL file) up to 4.5; from 5.0 no file
    /// (and one already there is left alone).
    pub fn writes_empty_files(self) -> bool {
        self < Exporter::Blender50
    }

    /// The importer's `validate_meshes` default: on from 4.1.
    pub fn validates_meshes(self) -> bool {
        self >= Exporter::Blender45
    }
}

/// An object's or material's name as Blender's exporters write it: spaces
/// as underscores.
pub fn exported_name(name: &str) -> Cow<'_, str> {
    if name.contains(' ') {
        Cow::Owned(name.replace(' ', "_"))
    } else {
        Cow::Borrowed(name)
    }
}

/// The order in which Blender's importer makes the objects named `names`:
/// by name as `BLI_strcasecmp` compares them (ASCII letters case aside,
/// bytes as C's signed `char`), sorted by [`std_sort`], which leaves
/// objects of one name in its own order. (From 500 objects up Blender sorts
/// in parallel, in an order not reproduced for objects of one name.)
pub(crate) fn creation_order<S: AsRef<str>>(names: &[S]) -> Vec<usize> {
    let key = |i: usize| names[i].as_ref().as_bytes();
    let mut order: Vec<usize> = (0..names.len()).collect();
    std_sort(&mut order, |&a, &b| strcasecmp(key(a), key(b)));
    order
}

/// `BLI_strcasecmp`: bytes lowered (ASCII) and compared as signed `char`s,
/// the shorter string ending in a 0.
fn strcasecmp(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let byte = |s: &[u8], i: usize| s.get(i).map_or(0, |c| c.to_ascii_lowercase() as i8);
    for i in 0..=a.len().max(b.len()) {
        let (x, y) = (byte(a, i), byte(b, i));
        if x != y || x == 0 {
            return x.cmp(&y);
        }
    }
    std::cmp::Ordering::Equal
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

    #[test]
    fn frames_names_and_defaults_by_version() {
        let (old, new) = (Exporter::Blender34, Exporter::Blender50);
        assert_eq!(old.frame_path("out/scene.obj", 12), "out/scene12.obj");
        assert_eq!(new.frame_path("out/scene.obj", 12), "out/scene0012.obj");
        assert_eq!(new.frame_path("out.d/scene", -3), "out.d/scene-003.obj");
        assert_eq!(
            new.frame_path("C:\\a.b\\.hidden", 1),
            "C:\\a.b\\.hidden0001.obj"
        );
        assert!(old.writes_empty_files() && !new.writes_empty_files());
        assert!(Exporter::Blender45.writes_empty_files());
        assert!(!old.validates_meshes() && Exporter::Blender45.validates_meshes());
        assert_eq!(exported_name("Cube 1 a"), "Cube_1_a");
        assert!(matches!(exported_name("Cube"), Cow::Borrowed("Cube")));
        assert_eq!(creation_order(&["b", "A", "a", "C"]), [1, 2, 0, 3]);
    }
}
