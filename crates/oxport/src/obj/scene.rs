//! An OBJ file and the MTL file it names, written together: what the Python
//! package, the command line and the Blender add-on all do when they export
//! a scene with materials; and read and written again ([`convert`]).

use std::path::{Path, PathBuf};

use crate::Result;
use crate::mesh::{Material, Mesh};

use super::{
    FileWriter, MaterialLibrary, ReadOptions, ReadWarning, WriteOptions, WriteSummary, read,
};

/// The MTL file written beside the OBJ file `obj` when no `mtllib` names
/// another: its name with the extension `.mtl` (`scene.obj`: `scene.mtl`).
/// The one rule of [`write_with_mtl`], the batches' outputs
/// ([`crate::batch::targets`]), `oxport.dask` and the Blender add-on.
pub fn mtl_path(obj: &Path) -> PathBuf {
    obj.with_extension("mtl")
}

/// Writes `meshes` to the OBJ file `path` and, with `library`, its materials
/// to an MTL file beside it, each file atomically, calling `progress(done,
/// total)` (in elements) as the OBJ file is written.
///
/// The MTL file is named by `options.mtllib`, or after `path` (`scene.obj`:
/// `scene.mtl`, and `mtllib scene.mtl`) when that is `None`. Options and
/// meshes are checked before anything is written, and the MTL file is written
/// before the OBJ file is completed ([`FileWriter::finish_with_mtl`]), so that
/// an OBJ file never names an MTL file that was not written.
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
        let mtl = mtl_path(path);
        options.mtllib = Some(mtl.file_name().unwrap_or_default().to_string_lossy().into());
    }
    let mut writer = FileWriter::create(path, options)?;
    writer.write_valid(meshes, progress)?;
    match library {
        Some(library) => writer.finish_with_mtl(library),
        None => writer.finish(),
    }
}

/// What [`convert`] read and wrote.
#[derive(Debug)]
pub struct Conversion {
    /// The size of the OBJ file read, in bytes.
    pub bytes_read: u64,
    /// Statements the read skipped (see [`super::Scene::skipped`]).
    pub skipped: u64,
    /// The materials read from the MTL files and written again.
    pub materials: usize,
    /// What the read passed over.
    pub warnings: Vec<ReadWarning>,
    /// The OBJ file written.
    pub written: WriteSummary,
}

/// A scene read from an OBJ file, around its meshes: what writing it again
/// keeps (see [`write_scene`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SceneText<'a> {
    /// The comment lines that opened the file.
    pub header: &'a [String],
    /// The file's `mtllib` statements.
    pub mtllibs: &'a [String],
    /// The materials read from its MTL files.
    pub materials: &'a [Material],
    /// The comment lines that opened its first MTL file.
    pub mtl_header: &'a [String],
    /// The MTL files read.
    pub mtl_files: &'a [PathBuf],
}

/// Writes a scene read from an OBJ file again as `path` with `options`: the
/// one rule for `oxport obj convert`, [`convert`] and Python's
/// `Scene.write_obj`.
///
/// - The comment lines that opened the file are kept, unless
///   `options.header` gives others.
/// - When MTL files were read, or the scene has materials, they are written
///   to an MTL file beside `path`, named by `options.mtllib` or after `path`
///   (`out.obj`: `out.mtl`), never after the file read (which a write beside
///   it would replace).
/// - Otherwise the file's first `mtllib` is written as it was (unless
///   `options.mtllib` gives another), and no MTL file.
///
/// Both files are written as by [`write_with_mtl`].
pub fn write_scene(
    path: &Path,
    meshes: &[Mesh],
    text: SceneText<'_>,
    options: &WriteOptions,
    progress: impl FnMut(u64, u64),
) -> Result<WriteSummary> {
    let mut options = options.clone();
    if options.header.is_empty() {
        options.header = text.header.to_vec();
    }
    let library =
        (!text.mtl_files.is_empty() || !text.materials.is_empty()).then(|| MaterialLibrary {
            materials: text.materials.to_vec(),
            header: text.mtl_header.to_vec(),
        });
    if library.is_none() && options.mtllib.is_none() {
        options.mtllib = text.mtllibs.first().cloned();
    }
    write_with_mtl(path, meshes, library.as_ref(), &options, progress)
}

/// Reads the OBJ file `input` and the MTL files it names, and writes them
/// again as `output` with `options` (other precisions, other threads), by
/// [`write_scene`]'s rule: OBJ to OBJ, each file whole or not at all.
/// `progress(done, total)` follows the write.
pub fn convert(
    input: &Path,
    output: &Path,
    reading: &ReadOptions,
    options: &WriteOptions,
    progress: impl FnMut(u64, u64),
) -> Result<Conversion> {
    let bytes_read = crate::source::open(input)?
        .size()
        .map_err(|e| crate::Error::io_at(input, e))?;
    let scene = read(input, reading)?;
    let text = SceneText {
        header: &scene.header,
        mtllibs: &scene.mtllibs,
        materials: &scene.materials,
        mtl_header: &scene.mtl_header,
        mtl_files: &scene.mtl_files,
    };
    let written = write_scene(output, &scene.meshes, text, options, progress)?;
    Ok(Conversion {
        bytes_read,
        skipped: scene.skipped,
        materials: scene.materials.len(),
        warnings: scene.warnings,
        written,
    })
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

    #[test]
    fn convert_keeps_comments_mtllib_and_materials() {
        let folder = tempfile::tempdir().unwrap();
        let input = folder.path().join("in.obj");
        let text = "# made by hand\nmtllib in.mtl\no a\nv 0.123456 0.000000 0.000000\n\
                    v 1.000000 0.000000 0.000000\nv 0.000000 1.000000 0.000000\n\
                    s 0\nusemtl red\nf 1 2 3\n";
        std::fs::write(&input, text).unwrap();
        let mtl = "# made by hand\n\nnewmtl red\nKd 0.800000 0.100000 0.100000\n";
        std::fs::write(folder.path().join("in.mtl"), mtl).unwrap();
        let output = folder.path().join("out.obj");
        let reading = ReadOptions::default();
        let done = convert(
            &input,
            &output,
            &reading,
            &WriteOptions::default(),
            |_, _| {},
        )
        .unwrap();
        assert_eq!((done.bytes_read, done.materials), (text.len() as u64, 1));
        assert_eq!(done.written.bytes, text.len() as u64 + 1); // in.mtl → out.mtl
        let written = std::fs::read_to_string(&output).unwrap();
        assert_eq!(written, text.replace("mtllib in.mtl", "mtllib out.mtl"));
        assert_eq!(
            std::fs::read_to_string(folder.path().join("out.mtl")).unwrap(),
            mtl
        );

        // Without the MTL file read, the file keeps its own reference.
        let reading = ReadOptions {
            materials: false,
            ..ReadOptions::default()
        };
        let options = WriteOptions {
            precision: crate::obj::Precision::Fixed(2),
            ..WriteOptions::default()
        };
        let done = convert(&input, &output, &reading, &options, |_, _| {}).unwrap();
        assert_eq!(done.materials, 0);
        let written = std::fs::read_to_string(&output).unwrap();
        assert!(
            written.starts_with("# made by hand\nmtllib in.mtl\no a\nv 0.12 0.00 0.00\n"),
            "{written}"
        );

        // A file that does not parse writes nothing.
        std::fs::write(&input, "v 0 0 x\n").unwrap();
        std::fs::remove_file(&output).unwrap();
        assert!(convert(&input, &output, &reading, &options, |_, _| {}).is_err());
        assert!(!output.exists());
    }
}
