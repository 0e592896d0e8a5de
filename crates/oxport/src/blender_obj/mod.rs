//! Blender's OBJ exporter and importer as a whole: [`blender`]'s arithmetic
//! on meshes, which knows no file format, joined to the [`obj`] format,
//! which knows no Blender version. Which layout each exporter writes is
//! decided here ([`dialect`]); reading the file an import builds its meshes
//! from happens here ([`import_obj`]), and so does the add-on's export:
//! gathered meshes built and written into an OBJ file as they come
//! ([`MeshStream`]).

use std::path::Path;

use crate::Result;
use crate::blender::{self, CurveInput, Exporter, ImportOptions, ImportedCurve, ImportedMesh};
use crate::obj::{self, CurveLayout, Dialect, ReadWarning, TextureNumbers};

mod stream;

pub use stream::{GatheredSource, LooseEdges, MeshStream};

/// The layout `exporter` writes: its curves' statements and its texture
/// options' numbers (`%g` in 3.4, the shortest round trip from 4.1).
pub fn dialect(exporter: Exporter) -> Dialect {
    let (curves, texture_numbers) = match exporter {
        Exporter::Blender34 => (CurveLayout::Blender34, TextureNumbers::General),
        Exporter::Blender45 => (CurveLayout::Blender45, TextureNumbers::Shortest),
        Exporter::Blender50 => (CurveLayout::Blender50, TextureNumbers::Shortest),
    };
    Dialect {
        curves,
        texture_numbers,
    }
}

/// An OBJ file as Blender's importer builds it.
#[derive(Clone, Debug, Default)]
pub struct ImportedScene {
    /// The objects Blender makes, in the order it makes them
    /// ([`blender::imported_meshes`]).
    pub meshes: Vec<ImportedMesh>,
    /// The `mtllib` statements' texts, in file order.
    pub mtllibs: Vec<String>,
    /// The curve objects Blender makes of the file's free-form curves
    /// ([`blender::imported_curve`]), in the order it makes them, each
    /// placed among the meshes by [`ImportedCurve::made_after`].
    pub curves: Vec<ImportedCurve>,
    /// What the read passed over (free-form surfaces among them).
    pub warnings: Vec<ReadWarning>,
    /// The scale every object is given for [`ImportOptions::clamp_size`]
    /// ([`blender::clamped_scale`]; `None`: their own).
    pub scale: Option<f32>,
}

/// Reads the OBJ file at `path` on `threads` (None: every core) and builds
/// each object's mesh as Blender's importer does
/// ([`blender::imported_meshes`]); the object before the first `o` is named
/// after the file, as Blender names it. MTL files are not read: Blender
/// makes the materials.
pub fn import_obj(
    path: &Path,
    options: &ImportOptions,
    threads: Option<usize>,
) -> Result<ImportedScene> {
    let read = obj::ReadOptions {
        threads,
        materials: false,
        objects: obj::ObjectRule::Blender {
            split_objects: options.split_objects,
            split_groups: options.split_groups,
            rational_curves: options.importer >= Exporter::Blender45,
            whole_lines: options.importer >= Exporter::Blender45,
        },
        ..obj::ReadOptions::default()
    };
    let scene = obj::read(path, &read)?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file_uvs = scene.declared[1] > 0;
    // (The curve the object before the first `o` became is named after the
    // file, as that object is.)
    fn name<'a>(curve: &'a obj::FreeFormCurve, stem: &'a str) -> &'a str {
        if curve.name.is_empty() {
            stem
        } else {
            &curve.name
        }
    }
    let listed: Vec<(usize, &str)> = (scene.curves.iter())
        .map(|c| (c.meshes_before, name(c, &stem)))
        .collect();
    let (meshes, places) = blender::imported_objects(
        &scene.meshes,
        &listed,
        &scene.faces_skipped,
        &stem,
        file_uvs,
        options,
        threads,
    )?;
    let mut curves = Vec::new();
    for (curve, (after, place)) in scene.curves.iter().zip(places) {
        let input = curve_input(curve, name(curve, &stem));
        let made = blender::imported_curve(
            &input,
            options.importer,
            options.close_spline_loops,
            options.collection_separator,
        );
        if let Some(mut made) = made {
            made.made_after = after;
            if made.by_blender() {
                made.obj = Some(blender::curve_obj(&input, &made.name));
            }
            curves.push((place, made));
        }
    }
    curves.sort_by_key(|c| c.0);
    let curves: Vec<ImportedCurve> = curves.into_iter().map(|c| c.1).collect();
    let scale = blender::clamped_scale_with_curves(&meshes, &curves, options);
    Ok(ImportedScene {
        meshes,
        mtllibs: scene.mtllibs,
        curves,
        warnings: scene.warnings,
        scale,
    })
}

/// A free-form curve as [`blender::imported_curve`] takes it, listed
/// under `name`.
pub fn curve_input<'a>(curve: &'a obj::FreeFormCurve, name: &'a str) -> CurveInput<'a> {
    CurveInput {
        name,
        group: &curve.group,
        degree: curve.degree,
        controls: &curve.controls,
        points: &curve.points,
        weights: &curve.weights,
        knots: &curve.knots,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_exporter_has_its_layout() {
        let of = |major, minor| dialect(Exporter::of_version(major, minor));
        assert_eq!(of(3, 4), Dialect::default());
        assert_eq!(of(4, 0), Dialect::default());
        assert_eq!(of(4, 1).curves, CurveLayout::Blender45);
        assert_eq!(of(4, 5).texture_numbers, TextureNumbers::Shortest);
        assert_eq!(of(5, 0).curves, CurveLayout::Blender50);
    }
}
