//! The MTL values Blender's exporter writes for a material: from its
//! Principled BSDF when one feeds the material output, from its viewport
//! values otherwise, with the exporter's float arithmetic (`Ns` from
//! roughness, `illum` from specular, metallic and alpha), its PBR extensions
//! and its texture maps.
//!
//! | rule | 3.4 | 4.5, 5.0 |
//! | --- | --- | --- |
//! | `-o`, `-s` numbers | `%g` | shortest (`{fmt}`'s `{}`): the writer's dialect (`blender_obj::dialect`) |
//! | emission texture | written | left out when `Emission Strength` is 0 (and `Ke` written) |

use super::{Exporter, exported_name};
use crate::mesh::{Material, TextureMap};

/// The inputs of a material's Principled BSDF (`node.inputs[NAME].default_value`).
#[derive(Clone, Debug, Default)]
pub struct Bsdf {
    /// `Roughness`.
    pub roughness: f32,
    /// `Specular` (`Specular IOR Level` from 4.0).
    pub specular: f32,
    /// `Metallic`.
    pub metallic: f32,
    /// `IOR`.
    pub ior: f32,
    /// `Alpha`.
    pub alpha: f32,
    /// `Base Color` without its alpha.
    pub base_color: [f32; 3],
    /// `Emission` without its alpha.
    pub emission: [f32; 3],
    /// `Emission Strength` (absent before Blender 2.91: no emission then).
    pub emission_strength: Option<f32>,
    /// `Sheen` (`Sheen Weight` from 4.0).
    pub sheen: f32,
    /// `Clearcoat` (`Coat Weight` from 4.0).
    pub clearcoat: f32,
    /// `Clearcoat Roughness` (`Coat Roughness` from 4.0).
    pub clearcoat_roughness: f32,
    /// `Anisotropic`.
    pub anisotropic: f32,
    /// `Anisotropic Rotation`.
    pub anisotropic_rotation: f32,
    /// `Transmission` (`Transmission Weight` from 4.0).
    pub transmission: f32,
}

/// A Principled BSDF input that an image texture can feed, by its Blender
/// 3.4 name (4.0 renamed some: `Specular IOR Level`, `Emission Color`,
/// `Sheen Weight`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureInput {
    /// `Base Color`: `map_Kd`.
    BaseColor,
    /// `Metallic`: `map_refl` (`map_Pm` with the PBR extensions).
    Metallic,
    /// `Specular`: `map_Ks`.
    Specular,
    /// `Roughness`: `map_Ns` (`map_Pr` with the PBR extensions).
    Roughness,
    /// `Sheen`: `map_Ps` (with the PBR extensions only).
    Sheen,
    /// `Emission`: `map_Ke`.
    Emission,
    /// `Alpha`: `map_d`.
    Alpha,
    /// Through a Normal Map node's `Color`.
    Normal,
}

impl TextureInput {
    /// Every input.
    pub const ALL: [TextureInput; 8] = [
        TextureInput::BaseColor,
        TextureInput::Metallic,
        TextureInput::Specular,
        TextureInput::Roughness,
        TextureInput::Sheen,
        TextureInput::Emission,
        TextureInput::Alpha,
        TextureInput::Normal,
    ];

    /// Its Blender 3.4 name: `Base Color`, `Metallic`, ... `Normal`.
    pub fn name(self) -> &'static str {
        match self {
            TextureInput::BaseColor => "Base Color",
            TextureInput::Metallic => "Metallic",
            TextureInput::Specular => "Specular",
            TextureInput::Roughness => "Roughness",
            TextureInput::Sheen => "Sheen",
            TextureInput::Emission => "Emission",
            TextureInput::Alpha => "Alpha",
            TextureInput::Normal => "Normal",
        }
    }

    /// The input called `name` in Blender 3.4.
    pub fn from_name(name: &str) -> Option<TextureInput> {
        TextureInput::ALL
            .into_iter()
            .find(|input| input.name() == name)
    }
}

/// The maps Blender writes, in its order: statement and the input it comes
/// from; without the PBR extensions, and with them.
const MAPS: [(&str, TextureInput); 7] = [
    ("map_Kd", TextureInput::BaseColor),
    ("map_Ks", TextureInput::Specular),
    ("map_Ns", TextureInput::Roughness),
    ("map_refl", TextureInput::Metallic),
    ("map_Ke", TextureInput::Emission),
    ("map_d", TextureInput::Alpha),
    ("map_Bump", TextureInput::Normal),
];
const PBR_MAPS: [(&str, TextureInput); 8] = [
    ("map_Kd", TextureInput::BaseColor),
    ("map_Pm", TextureInput::Metallic),
    ("map_Ks", TextureInput::Specular),
    ("map_Pr", TextureInput::Roughness),
    ("map_Ps", TextureInput::Sheen),
    ("map_Ke", TextureInput::Emission),
    ("map_d", TextureInput::Alpha),
    ("map_Bump", TextureInput::Normal),
];

/// An image texture linked to an input of the material's Principled BSDF.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageTexture {
    /// The input the texture feeds.
    pub input: TextureInput,
    /// The image's path as the MTL file names it.
    pub path: String,
    /// The `Location` and `Scale` of the Mapping node the exporter finds
    /// for it (without one: zeros and ones).
    pub location: [f32; 3],
    /// The Mapping node's `Scale` (ones without one).
    pub scale: [f32; 3],
    /// The Normal Map node's `Strength` (for [`TextureInput::Normal`]).
    pub normal_strength: f32,
}

impl ImageTexture {
    /// A texture without a Mapping node.
    pub fn new(input: TextureInput, path: impl Into<String>) -> ImageTexture {
        ImageTexture {
            input,
            path: path.into(),
            location: [0.0; 3],
            scale: [1.0; 3],
            normal_strength: 0.0,
        }
    }

    /// The map the exporter writes for it under `key`: its options (`-o`,
    /// `-s`, `-bm` for normal maps) and path.
    fn map(&self, key: &str) -> TextureMap {
        let normal = self.input == TextureInput::Normal && self.normal_strength > 0.0001;
        TextureMap {
            key: key.into(),
            path: self.path.clone(),
            offset: (self.location != [0.0; 3]).then_some(self.location),
            scale: (self.scale != [1.0; 3]).then_some(self.scale),
            bump_multiplier: normal.then_some(self.normal_strength),
            ..TextureMap::default()
        }
    }
}

/// A Blender material: its name, its viewport values, its BSDF if one feeds
/// the output, and the image textures linked to that BSDF.
#[derive(Clone, Debug, Default)]
pub struct MaterialInput {
    /// The material's name (spaces become underscores in the file).
    pub name: String,
    /// `Material.roughness`.
    pub roughness: f32,
    /// `Material.specular_intensity`.
    pub specular_intensity: f32,
    /// `Material.metallic`.
    pub metallic: f32,
    /// `Material.diffuse_color`, with alpha.
    pub diffuse_color: [f32; 4],
    /// The Principled BSDF feeding the material output, when there is one.
    pub bsdf: Option<Bsdf>,
    /// Looked at only with a BSDF; the first for an input counts.
    pub textures: Vec<ImageTexture>,
}

/// The texture maps `exporter` writes for `input`, in its order.
fn texture_maps(input: &MaterialInput, pbr: bool, exporter: Exporter) -> Vec<TextureMap> {
    let Some(bsdf) = &input.bsdf else {
        return Vec::new();
    };
    let keys: &[(&str, TextureInput)] = if pbr { &PBR_MAPS } else { &MAPS };
    keys.iter()
        .filter(|(_, from)| {
            // From 4.1 an emission texture counts only with emission.
            *from != TextureInput::Emission
                || exporter == Exporter::Blender34
                || bsdf.emission_strength.unwrap_or(0.0) != 0.0
        })
        .filter_map(|&(key, from)| {
            let texture = input.textures.iter().find(|t| t.input == from)?;
            Some(texture.map(key))
        })
        .collect()
}

/// The material `exporter` writes for `input`; with `pbr`, its PBR
/// extensions (`Pr`, `Pm`... in place of `Ns` and `Ka`).
pub fn mtl_material(input: &MaterialInput, pbr: bool, exporter: Exporter) -> Material {
    let viewport = Bsdf {
        roughness: input.roughness,
        specular: input.specular_intensity,
        metallic: input.metallic,
        ior: 1.0,
        alpha: input.diffuse_color[3],
        base_color: [
            input.diffuse_color[0],
            input.diffuse_color[1],
            input.diffuse_color[2],
        ],
        ..Bsdf::default()
    };
    let values = input.bsdf.as_ref().unwrap_or(&viewport);
    let strength = values.emission_strength.unwrap_or(0.0);
    let emission = values.emission.map(|c| c * strength);
    let exponent = 1.0 - values.roughness;
    let exponent = exponent * (exponent * 1000.0);
    let transparent = values.alpha != 1.0;
    let illum = if values.specular == 0.0 {
        1
    } else if values.metallic > 0.0 {
        if transparent { 6 } else { 3 }
    } else if transparent {
        9
    } else {
        2
    };
    let ambient = if values.metallic != 0.0 {
        [values.metallic; 3]
    } else {
        [1.0; 3]
    };
    let maps = texture_maps(input, pbr, exporter);
    // A property that a texture map gives has no line of its own.
    let mapped = |key: &str| maps.iter().any(|m| m.key == key);
    // Blender's PBR extensions, each unless a texture map gives it.
    let extension =
        |key: &str, value: f32| (pbr && !mapped(&format!("map_{key}"))).then_some(value);
    let bsdf = |value: fn(&Bsdf) -> f32| input.bsdf.as_ref().map(value);
    let transmission = bsdf(|b| b.transmission).unwrap_or(0.0);
    Material {
        name: exported_name(&input.name).into_owned(),
        specular_exponent: (!pbr)
            .then_some(exponent)
            .and_then(|e| (!mapped("map_Ns")).then_some(e)),
        ambient: (!pbr).then_some(ambient),
        diffuse: (!mapped("map_Kd")).then_some(values.base_color),
        specular: (!mapped("map_Ks")).then_some([values.specular; 3]),
        emissive: (!mapped("map_Ke")).then_some(emission),
        ior: Some(values.ior),
        dissolve: (!mapped("map_d")).then_some(values.alpha),
        illum: Some(illum),
        roughness: extension("Pr", values.roughness),
        metallic: extension("Pm", values.metallic),
        sheen: bsdf(|b| b.sheen).and_then(|v| extension("Ps", v)),
        clearcoat: bsdf(|b| b.clearcoat).and_then(|v| extension("Pc", v)),
        clearcoat_roughness: bsdf(|b| b.clearcoat_roughness).and_then(|v| extension("Pcr", v)),
        anisotropy: bsdf(|b| b.anisotropic).and_then(|v| extension("aniso", v)),
        anisotropy_rotation: bsdf(|b| b.anisotropic_rotation).and_then(|v| extension("anisor", v)),
        transmission_filter: (pbr && transmission > 0.0).then_some([transmission; 3]),
        statements: Vec::new(),
        maps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn viewport_values_without_a_bsdf() {
        let input = MaterialInput {
            name: "old paint".into(),
            roughness: 0.5,
            specular_intensity: 0.5,
            metallic: 0.0,
            diffuse_color: [0.8, 0.1, 0.1, 1.0],
            ..MaterialInput::default()
        };
        let m = mtl_material(&input, false, Exporter::Blender34);
        assert_eq!(m.name, "old_paint");
        assert_eq!(m.specular_exponent, Some(250.0));
        assert_eq!(m.ambient, Some([1.0; 3]));
        assert_eq!(m.emissive, Some([0.0; 3]));
        assert_eq!(
            (m.ior, m.dissolve, m.illum),
            (Some(1.0), Some(1.0), Some(2))
        );
    }

    #[test]
    fn bsdf_values_maps_and_pbr_extensions() {
        let input = MaterialInput {
            name: "glass".into(),
            bsdf: Some(Bsdf {
                roughness: 0.25,
                specular: 0.5,
                metallic: 0.5,
                ior: 1.5,
                alpha: 0.5,
                emission: [1.0, 0.5, 0.0],
                emission_strength: Some(2.0),
                transmission: 0.25,
                ..Bsdf::default()
            }),
            textures: vec![ImageTexture::new(TextureInput::BaseColor, "wood.png")],
            ..MaterialInput::default()
        };
        let m = mtl_material(&input, false, Exporter::Blender34);
        assert_eq!(m.diffuse, None, "a map gives it");
        assert_eq!(m.emissive, Some([2.0, 1.0, 0.0]));
        assert_eq!(m.specular_exponent, Some(0.75 * 750.0));
        assert_eq!(m.ambient, Some([0.5; 3]));
        assert_eq!(m.illum, Some(6), "metallic and transparent");
        let pbr = mtl_material(&input, true, Exporter::Blender34);
        assert_eq!((pbr.specular_exponent, pbr.ambient), (None, None));
        let extensions = [
            pbr.roughness,
            pbr.metallic,
            pbr.sheen,
            pbr.clearcoat,
            pbr.clearcoat_roughness,
            pbr.anisotropy,
            pbr.anisotropy_rotation,
        ];
        assert!(extensions.iter().all(Option::is_some), "{extensions:?}");
        assert_eq!(pbr.roughness, Some(0.25));
        assert_eq!(pbr.transmission_filter, Some([0.25; 3]));
        assert!(pbr.statements.is_empty());
        assert_eq!(m.roughness, None, "written with the PBR extensions only");
    }

    fn textured(emission_strength: f32) -> MaterialInput {
        let mapped = |input, path: &str| ImageTexture {
            location: [0.76377463, 0.25, 0.0],
            scale: [2.0, 1.510138, 1.0],
            normal_strength: 0.441856,
            ..ImageTexture::new(input, path)
        };
        MaterialInput {
            name: "everything".into(),
            bsdf: Some(Bsdf {
                emission_strength: Some(emission_strength),
                ..Bsdf::default()
            }),
            // Out of Blender's order: the maps come out in its order.
            textures: TextureInput::ALL
                .into_iter()
                .rev()
                .map(|input| mapped(input, input.name()))
                .collect(),
            ..MaterialInput::default()
        }
    }

    #[test]
    fn texture_maps_by_each_exporters_rules() {
        let old = mtl_material(&textured(0.0), false, Exporter::Blender34);
        let keys = |m: &Material| m.maps.iter().map(|m| m.key.clone()).collect::<Vec<_>>();
        assert_eq!(
            keys(&old),
            [
                "map_Kd", "map_Ks", "map_Ns", "map_refl", "map_Ke", "map_d", "map_Bump"
            ]
        );
        for map in &old.maps {
            assert_eq!(map.offset, Some([0.76377463, 0.25, 0.0]));
            assert_eq!(map.scale, Some([2.0, 1.510138, 1.0]));
            let normal = map.key == "map_Bump";
            assert_eq!(map.bump_multiplier, normal.then_some(0.441856));
        }
        assert_eq!(old.maps[0].path, "Base Color");
        assert_eq!(old.emissive, None, "the emission map gives it");
        // 4.1+: no emission map without emission.
        let new = mtl_material(&textured(0.0), true, Exporter::Blender45);
        assert_eq!(
            keys(&new),
            [
                "map_Kd", "map_Pm", "map_Ks", "map_Pr", "map_Ps", "map_d", "map_Bump"
            ]
        );
        assert_eq!(new.emissive, Some([0.0; 3]));
        let glowing = mtl_material(&textured(1.0), true, Exporter::Blender45);
        assert_eq!(glowing.maps[5].key, "map_Ke");
        assert_eq!(glowing.emissive, None);
    }
}
