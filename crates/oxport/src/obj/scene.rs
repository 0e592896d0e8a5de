//! An OBJ file and the MTL file it names, written together: what the Python
//! package, the command line and the Blender add-on all do when they export
//! a scene with materials.

use std::path::Path;

use crate::Result;
use crate::mesh::Mesh;

use super::{FileWriter, MaterialLibrary, WriteOptions, WriteSummary, write_mtl};

/// Writes `meshes` to the OBJ file `path` and, with `library`, its materials
/// to an MTL file beside it, each file atomically, calling `progress(done,
/// total)` (in elements) as the OBJ file is written.
///
/// The MTL file is named by `options.mtllib`, or after `path` (`scene.obj`:
/// `scene.mtl`, and `mtllib scene.mtl`) when that is `None`. Options and
/// meshes are checked before anything is written, and the MTL file is written
/// before the OBJ file is completed, so that an OBJ file never names an MTL
/// file that was not written.
pub fn write_with_mtl(
    path: &Path,
    meshes: &[Mesh],
    library: Option<&MaterialLibrary>,
    options: &WriteOptions,
    progress: impl FnMut(u64, u64),
) -> Result<WriteSummary> {
    meshes.iter().try_for_each(Mesh::validate)?;
    let mut options = options.clone();
    if library.is_some() && options.mtllib.is_none() {
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        options.mtllib = Some(format!("{stem}.mtl"));
    }
    let mut writer = FileWriter::create(path, options.clone())?;
    if let (Some(library), Some(name)) = (library, &options.mtllib) {
        let folder = path.parent().unwrap_or(Path::new(""));
        write_mtl(&folder.join(name), &library.materials, &library.header)?;
    }
    writer.write_valid(meshes, progress)?;
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::Material;
    use crate::synth;

    #[test]
    fn the_mtl_file_is_named_after_the_obj_file_or_by_mtllib() {
        let folder = tempfile::tempdir().unwrap();
        let library = MaterialLibrary {
            materials: vec![Material {
                name: "red".into(),
                ..Material::default()
            }],
            header: vec!["made here".into()],
        };
        let obj = folder.path().join("scene.obj");
        let meshes = [synth::sphere(1)];
        write_with_mtl(
            &obj,
            &meshes,
            Some(&library),
            &WriteOptions::default(),
            |_, _| {},
        )
        .unwrap();
        let text = std::fs::read_to_string(&obj).unwrap();
        assert!(text.starts_with("mtllib scene.mtl\n"), "{text:.40}");
        let mtl = std::fs::read_to_string(folder.path().join("scene.mtl")).unwrap();
        assert!(
            mtl.starts_with("# made here\n") && mtl.contains("newmtl red\n"),
            "{mtl}"
        );

        let options = WriteOptions {
            mtllib: Some("other.mtl".into()),
            ..WriteOptions::default()
        };
        write_with_mtl(&obj, &meshes, Some(&library), &options, |_, _| {}).unwrap();
        assert!(folder.path().join("other.mtl").is_file());
        assert!(
            std::fs::read_to_string(&obj)
                .unwrap()
                .starts_with("mtllib other.mtl\n")
        );
    }

    #[test]
    fn bad_options_write_neither_file() {
        let folder = tempfile::tempdir().unwrap();
        let library = MaterialLibrary::default();
        let options = WriteOptions {
            chunk_size: 0,
            ..WriteOptions::default()
        };
        let obj = folder.path().join("scene.obj");
        assert!(write_with_mtl(&obj, &[], Some(&library), &options, |_, _| {}).is_err());
        assert_eq!(std::fs::read_dir(folder.path()).unwrap().count(), 0);
    }
}
