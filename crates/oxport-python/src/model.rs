//! What the OBJ and Blender bindings share: the scene model's small classes
//! (`oxport.TextureMap`, a material's texture map with its options as
//! values; `Curve`, free-form curves) and the `blender_version` argument.

use pyo3::prelude::*;

use oxport::blender::Exporter;
use oxport::{Channel, Projection};

use crate::errors::invalid;

type Vector = (f32, f32, f32);

/// A texture map line of a material (`map_Kd -s 2 2 1 textures/wood.png`):
/// the statement, the image and the options, each None where the line has
/// none.
#[pyclass(module = "oxport._native", get_all, set_all, eq)]
#[derive(Clone, Debug, PartialEq)]
pub struct TextureMap {
    key: String,
    path: String,
    offset: Option<Vector>,
    scale: Option<Vector>,
    turbulence: Option<Vector>,
    range: Option<(f32, f32)>,
    bump_multiplier: Option<f32>,
    boost: Option<f32>,
    resolution: Option<u32>,
    clamp: Option<bool>,
    blend_u: Option<bool>,
    blend_v: Option<bool>,
    color_correction: Option<bool>,
    channel: Option<String>,
    projection: Option<String>,
}

#[pymethods]
impl TextureMap {
    #[new]
    #[pyo3(signature = (key, path, *, offset=None, scale=None, turbulence=None, range=None,
        bump_multiplier=None, boost=None, resolution=None, clamp=None, blend_u=None, blend_v=None,
        color_correction=None, channel=None, projection=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        key: String,
        path: String,
        offset: Option<Vector>,
        scale: Option<Vector>,
        turbulence: Option<Vector>,
        range: Option<(f32, f32)>,
        bump_multiplier: Option<f32>,
        boost: Option<f32>,
        resolution: Option<u32>,
        clamp: Option<bool>,
        blend_u: Option<bool>,
        blend_v: Option<bool>,
        color_correction: Option<bool>,
        channel: Option<String>,
        projection: Option<String>,
    ) -> PyResult<Self> {
        let map = TextureMap {
            key,
            path,
            offset,
            scale,
            turbulence,
            range,
            bump_multiplier,
            boost,
            resolution,
            clamp,
            blend_u,
            blend_v,
            color_correction,
            channel,
            projection,
        };
        map.to_library()?;
        Ok(map)
    }

    fn __repr__(&self) -> String {
        let mut fields = vec![format!("key={:?}, path={:?}", self.key, self.path)];
        let mut given = |name: &str, value: Option<String>| {
            if let Some(value) = value {
                fields.push(format!("{name}={value}"));
            }
        };
        let vector = |v: Option<Vector>| v.map(|(x, y, z)| format!("({x:?}, {y:?}, {z:?})"));
        let number = |v: Option<f32>| v.map(|x| format!("{x:?}"));
        let flag = |v: Option<bool>| v.map(|on| if on { "True" } else { "False" }.to_string());
        given("offset", vector(self.offset));
        given("scale", vector(self.scale));
        given("turbulence", vector(self.turbulence));
        given("range", self.range.map(|(b, g)| format!("({b:?}, {g:?})")));
        given("bump_multiplier", number(self.bump_multiplier));
        given("boost", number(self.boost));
        given("resolution", self.resolution.map(|r| r.to_string()));
        given("clamp", flag(self.clamp));
        given("blend_u", flag(self.blend_u));
        given("blend_v", flag(self.blend_v));
        given("color_correction", flag(self.color_correction));
        given("channel", self.channel.as_ref().map(|c| format!("{c:?}")));
        given(
            "projection",
            self.projection.as_ref().map(|p| format!("{p:?}")),
        );
        format!("TextureMap({})", fields.join(", "))
    }
}

impl TextureMap {
    /// The library's map; an unknown channel or projection is a
    /// `ValueError` naming the argument and the choices.
    pub(crate) fn to_library(&self) -> PyResult<oxport::TextureMap> {
        let vector = |v: Option<Vector>| v.map(|(x, y, z)| [x, y, z]);
        let channel = self
            .channel
            .as_deref()
            .map(|c| {
                Channel::from_name(c).ok_or_else(|| {
                    invalid("channel", format!("{c:?} is not one of {}", Channel::NAMES))
                })
            })
            .transpose()?;
        let projection = self
            .projection
            .as_deref()
            .map(|p| {
                Projection::from_name(p).ok_or_else(|| {
                    invalid(
                        "projection",
                        format!("{p:?} is not one of {}", Projection::NAMES),
                    )
                })
            })
            .transpose()?;
        Ok(oxport::TextureMap {
            key: self.key.clone(),
            path: self.path.clone(),
            offset: vector(self.offset),
            scale: vector(self.scale),
            turbulence: vector(self.turbulence),
            range: self.range.map(|(base, gain)| [base, gain]),
            bump_multiplier: self.bump_multiplier,
            boost: self.boost,
            resolution: self.resolution,
            clamp: self.clamp,
            blend_u: self.blend_u,
            blend_v: self.blend_v,
            color_correction: self.color_correction,
            channel,
            projection,
        })
    }

    pub(crate) fn from_library(map: oxport::TextureMap) -> TextureMap {
        let vector = |v: Option<[f32; 3]>| v.map(|[x, y, z]| (x, y, z));
        TextureMap {
            key: map.key,
            path: map.path,
            offset: vector(map.offset),
            scale: vector(map.scale),
            turbulence: vector(map.turbulence),
            range: map.range.map(|[base, gain]| (base, gain)),
            bump_multiplier: map.bump_multiplier,
            boost: map.boost,
            resolution: map.resolution,
            clamp: map.clamp,
            blend_u: map.blend_u,
            blend_v: map.blend_v,
            color_correction: map.color_correction,
            channel: map.channel.map(|c| c.name().to_string()),
            projection: map.projection.map(|p| p.name().to_string()),
        }
    }
}

/// Free-form curves to write after the meshes (`ObjWriter.write_curves`).
#[pyclass(frozen, module = "oxport._native")]
pub struct Curve {
    pub(crate) curve: oxport::Curve,
}

#[pymethods]
impl Curve {
    #[getter]
    fn name(&self) -> &str {
        &self.curve.name
    }

    #[getter]
    fn points(&self) -> Vec<[f32; 3]> {
        self.curve.points.clone()
    }
}

/// The exporter of `blender_version` (`bpy.app.version[:2]`; None: 3.4).
pub(crate) fn exporter(blender_version: Option<(u32, u32)>) -> Exporter {
    blender_version.map_or(Exporter::Blender34, |(major, minor)| {
        Exporter::of_version(major, minor)
    })
}
