//! The MTL writer, in Blender 3.4's layout: the header, then for each material
//! a blank line, `newmtl`, the eight properties and the texture maps.

use std::io::Write;
use std::path::Path;

use super::refuse_line_break;
use crate::mesh::Material;
use crate::numfmt::{self, write_fixed};
use crate::{Result, atomic};

/// Writes `materials` in the given order to `path`, atomically, with each
/// `header` line as `# line`.
pub fn write_mtl(path: &Path, materials: &[Material], header: &[String]) -> Result<()> {
    let bytes = encode(materials, header)?;
    atomic::write_file(path, |file| Ok(file.write_all(&bytes)?))
}

/// Writes `materials` to any byte sink.
pub fn write_mtl_to<W: Write>(mut out: W, materials: &[Material], header: &[String]) -> Result<()> {
    out.write_all(&encode(materials, header)?)?;
    Ok(out.flush()?)
}

fn encode(materials: &[Material], header: &[String]) -> Result<Vec<u8>> {
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
        for (key, value) in &material.statements {
            refuse_line_break("statement", key)?;
            refuse_line_break("statement value", value)?;
            out.extend_from_slice(key.as_bytes());
            out.push(b' ');
            out.extend_from_slice(value.as_bytes());
            out.push(b'\n');
        }
        for map in &material.maps {
            for (what, text) in [
                ("texture map key", &map.key),
                ("texture map options", &map.options),
                ("texture path", &map.path),
            ] {
                refuse_line_break(what, text)?;
            }
            out.extend_from_slice(map.key.as_bytes());
            if !map.options.is_empty() {
                out.push(b' ');
                out.extend_from_slice(map.options.as_bytes());
            }
            out.push(b' ');
            out.extend_from_slice(map.path.as_bytes());
            out.push(b'\n');
        }
    }
    Ok(out)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::TextureMap;

    #[test]
    fn blender_layout() {
        let material = Material {
            name: "wood".into(),
            maps: vec![TextureMap {
                key: "map_Kd".into(),
                options: "-s 2 2 1".into(),
                path: "tex/wood grain.png".into(),
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
}
