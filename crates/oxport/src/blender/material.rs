//! Blender 3.4's MTL values for a material: from its Principled BSDF when one
//! feeds the material output, from its viewport values otherwise, with the
//! exporter's float arithmetic (`Ns` from roughness, `illum` from specular,
//! metallic and alpha) and its PBR extensions.

use crate::mesh::{Material, TextureMap};

/// The inputs of a material's Principled BSDF (`node.inputs[NAME].default_value`).
#[derive(Clone, Debug, Default)]
pub struct Bsdf {
    pub roughness: f32,
    pub specular: f32,
    pub metallic: f32,
    pub ior: f32,
    pub alpha: f32,
    /// `Base Color` without its alpha.
    pub base_color: [f32; 3],
    /// `Emission` without its alpha.
    pub emission: [f32; 3],
    /// `Emission Strength` (absent before Blender 2.91: no emission then).
    pub emission_strength: Option<f32>,
    pub sheen: f32,
    pub clearcoat: f32,
    pub clearcoat_roughness: f32,
    pub anisotropic: f32,
    pub anisotropic_rotation: f32,
    pub transmission: f32,
}

/// A Blender material: its name, its viewport values, its BSDF if one feeds
/// the output, and the texture maps found for it (in Blender's order).
#[derive(Clone, Debug, Default)]
pub struct MaterialInput {
    pub name: String,
    /// `Material.roughness`, `specular_intensity`, `metallic`, `diffuse_color`.
    pub roughness: f32,
    pub specular_intensity: f32,
    pub metallic: f32,
    pub diffuse_color: [f32; 4],
    pub bsdf: Option<Bsdf>,
    pub maps: Vec<TextureMap>,
}

/// The material Blender 3.4's exporter writes for `input`; with `pbr`, its
/// PBR extensions (`Pr`, `Pm`... in place of `Ns` and `Ka`).
pub fn mtl_material(input: &MaterialInput, pbr: bool) -> Material {
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
    // A property that a texture map gives has no line of its own.
    let mapped = |key: &str| input.maps.iter().any(|m| m.key == key);
    let mut statements = Vec::new();
    if pbr {
        let mut extensions = vec![("Pr", values.roughness), ("Pm", values.metallic)];
        if let Some(b) = &input.bsdf {
            extensions.extend([
                ("Ps", b.sheen),
                ("Pc", b.clearcoat),
                ("Pcr", b.clearcoat_roughness),
                ("aniso", b.anisotropic),
                ("anisor", b.anisotropic_rotation),
            ]);
        }
        for (key, value) in extensions {
            if !mapped(&format!("map_{key}")) {
                statements.push((key.to_string(), fixed(value)));
            }
        }
        let transmission = input.bsdf.as_ref().map_or(0.0, |b| b.transmission);
        if transmission > 0.0 {
            let value = fixed(transmission);
            statements.push(("Tf".into(), format!("{value} {value} {value}")));
        }
    }
    Material {
        name: input.name.replace(' ', "_"),
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
        statements,
        maps: input.maps.clone(),
    }
}

/// `printf("%f")` of a float32, as Blender writes these values.
fn fixed(value: f32) -> String {
    let mut out = Vec::new();
    crate::numfmt::write_fixed(&mut out, value, 6);
    String::from_utf8(out).expect("digits are ASCII")
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
        let m = mtl_material(&input, false);
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
            maps: vec![TextureMap {
                key: "map_Kd".into(),
                options: String::new(),
                path: "wood.png".into(),
            }],
            ..MaterialInput::default()
        };
        let m = mtl_material(&input, false);
        assert_eq!(m.diffuse, None, "a map gives it");
        assert_eq!(m.emissive, Some([2.0, 1.0, 0.0]));
        assert_eq!(m.specular_exponent, Some(0.75 * 750.0));
        assert_eq!(m.ambient, Some([0.5; 3]));
        assert_eq!(m.illum, Some(6), "metallic and transparent");
        let pbr = mtl_material(&input, true);
        assert_eq!((pbr.specular_exponent, pbr.ambient), (None, None));
        let keys: Vec<&str> = pbr.statements.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(
            keys,
            ["Pr", "Pm", "Ps", "Pc", "Pcr", "aniso", "anisor", "Tf"]
        );
        assert_eq!(pbr.statements[0].1, "0.250000");
        assert_eq!(pbr.statements[7].1, "0.250000 0.250000 0.250000");
    }
}
