//! The MTL writer, in Blender's layout: the header, then for each material
//! a blank line, `newmtl`, the eight properties, the PBR extensions, the
//! statements kept as read and the texture maps, their
//! options in the order Blender writes its own (`-o`, `-s`, `-bm`) and the
//! others after them.

use std::io::Write;
use std::path::Path;

use super::dialect::{Dialect, TextureNumbers};
use super::refuse_line_break;
use crate::mesh::{Channel, Material, Projection, TextureMap};
use crate::numfmt::{self, write_fixed};
use crate::{Result, atomic};

/// Writes `materials` in the given order to `path`, atomically, with each
/// `header` line as `# line`, numbers as `dialect` says.
pub fn write_mtl(
    path: &Path,
    materials: &[Material],
    header: &[String],
    dialect: Dialect,
) -> Result<()> {
    let bytes = encode(materials, header, dialect)?;
    atomic::write_file(path, |file| Ok(file.write_all(&bytes)?))
}

/// Writes `materials` to any byte sink.
pub fn write_mtl_to<W: Write>(
    mut out: W,
    materials: &[Material],
    header: &[String],
    dialect: Dialect,
) -> Result<()> {
    out.write_all(&encode(materials, header, dialect)?)?;
    Ok(out.flush()?)
}

fn encode(materials: &[Material], header: &[String], dialect: Dialect) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for line in header {
        refuse_line_break("header line", line)?;
        out.extend_from_slice(b"# ");
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
    for material in materials {
        refuse_line_break("material name", &material.name)?;
        out.extend_from_slice(b"\nnewmtl ");
        out.extend_from_slice(material.name.as_bytes());
        out.push(b'\n');
        scalar(&mut out, b"Ns", material.specular_exponent);
        color(&mut out, b"Ka", material.ambient);
        color(&mut out, b"Kd", material.diffuse);
        color(&mut out, b"Ks", material.specular);
        color(&mut out, b"Ke", material.emissive);
        scalar(&mut out, b"Ni", material.ior);
        scalar(&mut out, b"d", material.dissolve);
        if let Some(illum) = material.illum {
            out.extend_from_slice(b"illum ");
            numfmt::write_i64(&mut out, i64::from(illum));
            out.push(b'\n');
        }
        scalar(&mut out, b"Pr", material.roughness);
        scalar(&mut out, b"Pm", material.metallic);
        scalar(&mut out, b"Ps", material.sheen);
        scalar(&mut out, b"Pc", material.clearcoat);
        scalar(&mut out, b"Pcr", material.clearcoat_roughness);
        scalar(&mut out, b"aniso", material.anisotropy);
        scalar(&mut out, b"anisor", material.anisotropy_rotation);
        color(&mut out, b"Tf", material.transmission_filter);
        for (key, value) in &material.statements {
            refuse_line_break("statement", key)?;
            refuse_line_break("statement value", value)?;
            out.extend_from_slice(key.as_bytes());
            out.push(b' ');
            out.extend_from_slice(value.as_bytes());
            out.push(b'\n');
        }
        for map in &material.maps {
            texture_map(&mut out, map, dialect.texture_numbers)?;
        }
    }
    Ok(out)
}

/// `KEY OPTIONS PATH`.
fn texture_map(out: &mut Vec<u8>, map: &TextureMap, numbers: TextureNumbers) -> Result<()> {
    refuse_line_break("texture map key", &map.key)?;
    refuse_line_break("texture path", &map.path)?;
    out.extend_from_slice(map.key.as_bytes());
    let vector = |out: &mut Vec<u8>, flag: &str, values: Option<&[f32]>| {
        let Some(values) = values else {
            return;
        };
        out.push(b' ');
        out.extend_from_slice(flag.as_bytes());
        for &value in values {
            out.push(b' ');
            match numbers {
                TextureNumbers::General => numfmt::write_general(out, value, 6),
                TextureNumbers::Shortest => numfmt::write_general_shortest(out, value),
            }
        }
    };
    vector(out, "-o", map.offset.as_ref().map(|v| &v[..]));
    vector(out, "-s", map.scale.as_ref().map(|v| &v[..]));
    vector(out, "-t", map.turbulence.as_ref().map(|v| &v[..]));
    vector(out, "-mm", map.range.as_ref().map(|v| &v[..]));
    let word = |out: &mut Vec<u8>, flag: &str, value: Option<&str>| {
        if let Some(value) = value {
            out.push(b' ');
            out.extend_from_slice(flag.as_bytes());
            out.push(b' ');
            out.extend_from_slice(value.as_bytes());
        }
    };
    let on_off = |value: Option<bool>| value.map(|on| if on { "on" } else { "off" });
    for (flag, value) in [("-bm", map.bump_multiplier), ("-boost", map.boost)] {
        if let Some(value) = value {
            out.push(b' ');
            out.extend_from_slice(flag.as_bytes());
            out.push(b' ');
            write_fixed(out, value, 6);
        }
    }
    if let Some(resolution) = map.resolution {
        out.extend_from_slice(b" -texres ");
        numfmt::write_u32(out, resolution);
    }
    word(out, "-clamp", on_off(map.clamp));
    word(out, "-blendu", on_off(map.blend_u));
    word(out, "-blendv", on_off(map.blend_v));
    word(out, "-cc", on_off(map.color_correction));
    word(out, "-imfchan", map.channel.map(|c| c.name()));
    word(out, "-type", map.projection.map(|p| p.name()));
    out.push(b' ');
    out.extend_from_slice(map.path.as_bytes());
    out.push(b'\n');
    Ok(())
}

fn scalar(out: &mut Vec<u8>, key: &[u8], value: Option<f32>) {
    let Some(value) = value else {
        return;
    };
    out.extend_from_slice(key);
    out.push(b' ');
    write_fixed(out, value, 6);
    out.push(b'\n');
}

fn color(out: &mut Vec<u8>, key: &[u8], value: Option<[f32; 3]>) {
    let Some(value) = value else {
        return;
    };
    out.extend_from_slice(key);
    for x in value {
        out.push(b' ');
        write_fixed(out, x, 6);
    }
    out.push(b'\n');
}

/// The enums of texture map options as MTL spells them: one table each,
/// read both ways.
macro_rules! mtl_names {
    ($kind:ident, $first_variant:ident = $first:literal $(, $variant:ident = $name:literal)* $(,)?) => {
        impl $kind {
            /// The names MTL files give the values, in the format's order.
            pub const NAMES: &'static str = concat!($first $(, ", ", $name)*);

            /// The name MTL files give it.
            pub fn name(self) -> &'static str {
                match self {
                    $kind::$first_variant => $first,
                    $($kind::$variant => $name),*
                }
            }

            /// The value MTL files name `name`.
            pub fn from_name(name: &str) -> Option<$kind> {
                match name {
                    $first => Some($kind::$first_variant),
                    $($name => Some($kind::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

mtl_names!(
    Channel,
    Red = "r",
    Green = "g",
    Blue = "b",
    Matte = "m",
    Luminance = "l",
    Depth = "z"
);
mtl_names!(
    Projection,
    Sphere = "sphere",
    CubeTop = "cube_top",
    CubeBottom = "cube_bottom",
    CubeFront = "cube_front",
    CubeBack = "cube_back",
    CubeLeft = "cube_left",
    CubeRight = "cube_right",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blender_layout() {
        let material = Material {
            name: "wood".into(),
            maps: vec![TextureMap {
                key: "map_Kd".into(),
                path: "tex/wood grain.png".into(),
                scale: Some([2.0, 2.0, 1.0]),
                ..TextureMap::default()
            }],
            ..Material::default()
        };
        let mut out = Vec::new();
        write_mtl_to(
            &mut out,
            &[material],
            &[
                "Blender 3.4.1 MTL File: 'None'".into(),
                "www.blender.org".into(),
            ],
            Dialect::default(),
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "# Blender 3.4.1 MTL File: 'None'\n# www.blender.org\n\nnewmtl wood\nNs 250.000000\n\
             Ka 1.000000 1.000000 1.000000\nKd 0.800000 0.800000 0.800000\n\
             Ks 0.500000 0.500000 0.500000\nKe 0.000000 0.000000 0.000000\nNi 1.450000\n\
             d 1.000000\nillum 2\nmap_Kd -s 2 2 1 tex/wood grain.png\n"
        );
    }

    #[test]
    fn texture_options_in_blenders_order_then_the_others() {
        let map = TextureMap {
            key: "map_Bump".into(),
            path: "n.png".into(),
            offset: Some([0.76377463, 0.25, 0.0]),
            scale: Some([2.0, 1.510138, 1.0]),
            bump_multiplier: Some(0.441856),
            ..TextureMap::default()
        };
        let line = |map: &TextureMap, texture_numbers| {
            let mut out = Vec::new();
            texture_map(&mut out, map, texture_numbers).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(
            line(&map, TextureNumbers::General),
            "map_Bump -o 0.763775 0.25 0 -s 2 1.51014 1 -bm 0.441856 n.png\n"
        );
        assert_eq!(
            line(&map, TextureNumbers::Shortest),
            "map_Bump -o 0.76377463 0.25 0 -s 2 1.510138 1 -bm 0.441856 n.png\n"
        );
        let every = TextureMap {
            key: "refl".into(),
            path: "sky.png".into(),
            turbulence: Some([0.5, 0.0, 0.0]),
            range: Some([0.1, 0.9]),
            boost: Some(2.0),
            resolution: Some(512),
            clamp: Some(true),
            blend_u: Some(false),
            blend_v: Some(true),
            color_correction: Some(false),
            channel: Some(crate::mesh::Channel::Luminance),
            projection: Some(crate::mesh::Projection::CubeTop),
            ..TextureMap::default()
        };
        let text = line(&every, TextureNumbers::Shortest);
        assert_eq!(
            text,
            "refl -t 0.5 0 0 -mm 0.1 0.9 -boost 2.000000 -texres 512 -clamp on -blendu off \
             -blendv on -cc off -imfchan l -type cube_top sky.png\n"
        );
        // What is written reads back as the same map.
        let library = super::super::parse_mtl(format!("newmtl a\n{text}").as_bytes()).unwrap();
        assert_eq!(library.materials[0].maps, [every]);
    }
}
