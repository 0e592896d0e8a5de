//! `oxport._native`: typed glue that turns Python objects into the library's
//! types, releases the GIL around the work and maps errors. This file only
//! registers; each area has its file.

mod batch;
mod blender;
mod blender_import;
mod blender_stream;
mod buffers;
mod build;
mod bytes;
mod cli;
mod color;
mod deflate;
mod errors;
mod exr;
mod facade;
mod mesh;
mod model;
mod numfmt;
mod obj;
mod open;
mod seekable;
mod sink;
mod source;
mod view;
mod zstd;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    facade::register(m)?;
    errors::register(m)?;
    m.add_class::<mesh::Mesh>()?;
    m.add_class::<model::TextureMap>()?;
    m.add_class::<obj::WriteOptions>()?;
    m.add_class::<obj::ObjWriter>()?;
    m.add_function(wrap_pyfunction!(obj::write_obj, m)?)?;
    m.add_function(wrap_pyfunction!(obj::write_mtl, m)?)?;
    m.add_function(wrap_pyfunction!(obj::mtl_path, m)?)?;
    m.add_function(wrap_pyfunction!(obj::read_obj, m)?)?;
    m.add_function(wrap_pyfunction!(obj::read_mtl, m)?)?;
    m.add_function(wrap_pyfunction!(obj::convert_obj, m)?)?;
    m.add_function(wrap_pyfunction!(obj::write_scene, m)?)?;
    m.add_class::<blender::Gathered>()?;
    m.add_class::<blender_stream::MeshStream>()?;
    m.add_class::<blender_stream::LooseEdges>()?;
    m.add_function(wrap_pyfunction!(blender::blender_meshes, m)?)?;
    m.add_function(wrap_pyfunction!(blender::blender_unused_edges, m)?)?;
    m.add_class::<blender::Bsdf>()?;
    m.add_class::<blender::ImageTexture>()?;
    m.add_class::<blender::NurbsSpline>()?;
    m.add_class::<blender::BlenderExporter>()?;
    m.add_class::<blender_import::ImportedMesh>()?;
    m.add_class::<blender_import::CustomNormals>()?;
    m.add_function(wrap_pyfunction!(blender_import::blender_import_obj, m)?)?;
    m.add_class::<blender_import::CustomNormalsStream>()?;
    m.add_function(wrap_pyfunction!(blender::blender_mtl_material, m)?)?;
    m.add_class::<model::Curve>()?;
    m.add_function(wrap_pyfunction!(blender::blender_nurbs_curves, m)?)?;
    m.add_function(wrap_pyfunction!(numfmt::format_fixed, m)?)?;
    m.add_class::<batch::BatchJob>()?;
    m.add_class::<batch::BatchConversion>()?;
    m.add_class::<batch::BatchDone>()?;
    m.add_function(wrap_pyfunction!(batch::batch_located, m)?)?;
    m.add_function(wrap_pyfunction!(source::is_url, m)?)?;
    m.add_class::<seekable::SeekableReader>()?;
    m.add_class::<seekable::SeekableWriter>()?;
    m.add_function(wrap_pyfunction!(seekable::seekable_pack, m)?)?;
    seekable::add_defaults(m)?;
    m.add_class::<exr::ExrReader>()?;
    m.add_class::<exr::ExrNewPart>()?;
    m.add_function(wrap_pyfunction!(exr::exr_write, m)?)?;
    m.add_function(wrap_pyfunction!(exr::exr_convert, m)?)?;
    m.add_function(wrap_pyfunction!(exr::exr_rgb_from_yc, m)?)?;
    m.add_function(wrap_pyfunction!(exr::exr_yc_from_rgb, m)?)?;
    m.add_function(wrap_pyfunction!(seekable::seekable_unpack, m)?)?;
    m.add_function(wrap_pyfunction!(color::color_convert, m)?)?;
    m.add_function(wrap_pyfunction!(color::color_parse_hex, m)?)?;
    m.add_function(wrap_pyfunction!(color::color_gradient, m)?)?;
    m.add_function(wrap_pyfunction!(color::color_render_gradients, m)?)?;
    m.add_function(wrap_pyfunction!(color::color_preset_names, m)?)?;
    zstd::register(m)?;
    deflate::register(m)?;
    m.add_class::<build::BuildInfo>()?;
    m.add_function(wrap_pyfunction!(build::build_info, m)?)?;
    m.add_function(wrap_pyfunction!(cli::cli, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
