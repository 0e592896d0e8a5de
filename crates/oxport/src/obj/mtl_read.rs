//! Reading MTL files: materials with the properties and texture maps they
//! state (an absent property is `None`, so that writing gives back the same
//! lines); statements without a field of their own (Blender's PBR extensions,
//! `Tf`, `sharpness`...) are kept in order in `statements`.

use std::path::{Path, PathBuf};

use crate::mesh::{Channel, Material, Projection, TextureMap};
use crate::{Error, Result};

use super::quoted;

/// The materials of an MTL file and the comment lines that open it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MaterialLibrary {
    /// The materials, in file order.
    pub materials: Vec<Material>,
    /// The comment lines before the first statement, without `#` and one space.
    pub header: Vec<String>,
}

/// Reads the MTL file at `path` (with the `remote` feature, a URL).
pub fn read_mtl(path: &Path) -> Result<MaterialLibrary> {
    let data = crate::source::read_all(path)?;
    parse_mtl(&data).map_err(|error| error.in_file(path))
}

/// The MTL files that an OBJ file's `mtllib` statements name, found in the
/// OBJ file's `folder`: a statement's text is one file name when such a file
/// exists (names may hold spaces), else several names. Only files inside
/// `root` (subfolders included, links resolved) are returned; the others,
/// and names without a file, come back as errors, in order (a path outside
/// `root` is not opened). A URL's `folder` is its prefix, and its files are
/// objects there (each asked for its size, not read).
pub(crate) fn mtl_files(
    folder: &Path,
    mtllibs: &[String],
    root: &Path,
) -> (Vec<PathBuf>, Vec<Error>) {
    let (mut found, mut refused) = (Vec::new(), Vec::new());
    for text in mtllibs {
        let whole = inside(root, folder, text).ok().filter(|p| is_file(p));
        let names: Vec<&str> = match whole {
            Some(_) => vec![text.as_str()],
            None => text.split_whitespace().collect(),
        };
        for name in names {
            match inside(root, folder, name) {
                Err(error) => refused.push(error),
                Ok(path) if is_file(&path) => found.push(path),
                Ok(path) => refused.push(Error::io_at(
                    &path,
                    std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
                )),
            }
        }
    }
    (found, refused)
}

/// Whether `path` is a file (for a URL, an object).
fn is_file(path: &Path) -> bool {
    #[cfg(feature = "remote")]
    if crate::remote::is_url(path) {
        return crate::source::open(path).is_ok();
    }
    path.is_file()
}

/// The file `name` of `folder` when it lies inside `root`: first by its
/// components alone (a path that leaves is never touched), then with links
/// resolved where it exists.
fn inside(root: &Path, folder: &Path, name: &str) -> Result<PathBuf> {
    let path = folder.join(name);
    let outside = || Error::Parse {
        path: None,
        line: 0,
        reason: format!(
            "mtllib {} is outside {}: not opened",
            quoted(name.as_bytes()),
            root.display()
        )
        .into(),
    };
    let (lexical_root, lexical_path) = (lexical(root), lexical(&path));
    match (&lexical_root, &lexical_path) {
        (Some(r), Some(p)) if p.starts_with(r) => {}
        _ => return Err(outside()),
    }
    match (root.canonicalize(), path.canonicalize()) {
        (Ok(r), Ok(p)) if !p.starts_with(&r) => Err(outside()),
        _ => Ok(path),
    }
}

/// `path` made absolute, with `.` and `..` resolved by its components
/// (`None` if `..` climbs above the file system's root).
fn lexical(path: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let absolute = std::path::absolute(path).ok()?;
    let mut out = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}

fn error(line: u64, reason: String) -> Error {
    Error::Parse {
        path: None,
        line,
        reason: reason.into(),
    }
}

/// Parses MTL text.
pub fn parse_mtl(data: &[u8]) -> Result<MaterialLibrary> {
    let text = String::from_utf8_lossy(data);
    let mut library = MaterialLibrary::default();
    let mut seen_statement = false;
    for (index, raw) in text.split('\n').enumerate() {
        let number = index as u64 + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line.contains('\r') {
            // It could not be written back on one line.
            return Err(error(number, "a carriage return inside the line".into()));
        }
        if let Some(comment) = line.strip_prefix('#') {
            if !seen_statement {
                let comment = comment.strip_prefix(' ').unwrap_or(comment);
                library.header.push(comment.to_string());
            }
            continue;
        }
        seen_statement = true;
        let (keyword, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(k, r)| (k, r.trim()));
        if keyword == "newmtl" {
            library.materials.push(Material {
                name: rest.to_string(),
                specular_exponent: None,
                ambient: None,
                diffuse: None,
                specular: None,
                emissive: None,
                ior: None,
                dissolve: None,
                illum: None,
                ..Material::default()
            });
            continue;
        }
        let Some(material) = library.materials.last_mut() else {
            return Err(error(
                number,
                format!("{} before any newmtl", quoted(keyword.as_bytes())),
            ));
        };
        let numbers = || -> Result<Vec<f32>> {
            rest.split_whitespace()
                .map(|t| {
                    t.parse::<f32>().map_err(|_| {
                        error(
                            number,
                            format!("{keyword}: {} is not a number", quoted(t.as_bytes())),
                        )
                    })
                })
                .collect()
        };
        let one = || -> Result<f32> {
            match numbers()?.as_slice() {
                [x] => Ok(*x),
                other => Err(error(
                    number,
                    format!("{keyword} wants one number, not {}", other.len()),
                )),
            }
        };
        let color = || -> Result<[f32; 3]> {
            match numbers()?.as_slice() {
                [x, y, z] => Ok([*x, *y, *z]),
                // One number: a grey.
                [x] => Ok([*x; 3]),
                other => Err(error(
                    number,
                    format!("{keyword} wants 3 numbers, not {}", other.len()),
                )),
            }
        };
        match keyword {
            "Ns" => material.specular_exponent = Some(one()?),
            "Ka" => material.ambient = Some(color()?),
            "Kd" => material.diffuse = Some(color()?),
            "Ks" => material.specular = Some(color()?),
            "Ke" => material.emissive = Some(color()?),
            "Ni" => material.ior = Some(one()?),
            "d" => material.dissolve = Some(one()?),
            "Pr" => material.roughness = Some(one()?),
            "Pm" => material.metallic = Some(one()?),
            "Ps" => material.sheen = Some(one()?),
            "Pc" => material.clearcoat = Some(one()?),
            "Pcr" => material.clearcoat_roughness = Some(one()?),
            "aniso" => material.anisotropy = Some(one()?),
            "anisor" => material.anisotropy_rotation = Some(one()?),
            // `Tf spectral file` and `Tf xyz x y z` are kept as they are.
            "Tf" if !rest.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                material.transmission_filter = Some(color()?)
            }
            "illum" => {
                material.illum = Some(rest.parse::<i32>().map_err(|_| {
                    error(
                        number,
                        format!(
                            "illum wants a whole number, not {}",
                            quoted(rest.as_bytes())
                        ),
                    )
                })?)
            }
            _ if keyword.starts_with("map_")
                || matches!(keyword, "bump" | "disp" | "decal" | "refl" | "norm") =>
            {
                material.maps.push(texture_map(keyword, rest, number)?);
            }
            _ => material
                .statements
                .push((keyword.to_string(), rest.to_string())),
        }
    }
    Ok(library)
}

/// `map_Kd -s 2 2 1 textures/wood grain.png`: the options the format
/// knows, each with its values; the rest (which may hold spaces) is the path.
fn texture_map(key: &str, rest: &str, line: u64) -> Result<TextureMap> {
    // Tokens with their byte ranges, so that the path keeps its own spacing.
    let mut tokens: Vec<(usize, &str)> = Vec::new();
    let mut start = None;
    for (i, c) in rest.char_indices().chain([(rest.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                tokens.push((s, &rest[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    let mut map = TextureMap {
        key: key.to_string(),
        ..TextureMap::default()
    };
    let mut at = 0;
    while let Some(&(_, flag)) = tokens.get(at) {
        let values = &tokens[at + 1..];
        let wrong = |reason: String| error(line, format!("{key}: {flag}: {reason}"));
        let wants = |count: usize| error(line, format!("{key}: {flag} wants {count} value(s)"));
        let value = || -> Result<&str> { values.first().map(|v| v.1).ok_or_else(|| wants(1)) };
        let number = |text: &str| -> Result<f32> {
            text.parse()
                .map_err(|_| wrong(format!("{} is not a number", quoted(text.as_bytes()))))
        };
        let on_off = || -> Result<bool> {
            match value()? {
                "on" => Ok(true),
                "off" => Ok(false),
                other => Err(wrong(format!(
                    "{} is not on or off",
                    quoted(other.as_bytes())
                ))),
            }
        };
        // A name not in an enum's MTL table (`Channel::NAMES`, ...).
        let not_one_of = |name: &str, names: &str| {
            wrong(format!("{} is not one of {names}", quoted(name.as_bytes())))
        };
        let taken = match flag {
            // One to three numbers; those not given are 0 (1 for `-s`).
            "-o" | "-s" | "-t" => {
                let mut vector = [if flag == "-s" { 1.0 } else { 0.0 }; 3];
                let mut taken = 0;
                while let Some(Ok(x)) = values.get(taken).filter(|_| taken < 3).map(|v| v.1.parse())
                {
                    vector[taken] = x;
                    taken += 1;
                }
                if taken == 0 {
                    return Err(wants(1));
                }
                *match flag {
                    "-o" => &mut map.offset,
                    "-s" => &mut map.scale,
                    _ => &mut map.turbulence,
                } = Some(vector);
                taken
            }
            "-mm" => {
                let [Some(base), Some(gain)] = [0, 1].map(|i| values.get(i).map(|v| v.1)) else {
                    return Err(wants(2));
                };
                map.range = Some([number(base)?, number(gain)?]);
                2
            }
            "-bm" | "-boost" => {
                *match flag {
                    "-bm" => &mut map.bump_multiplier,
                    _ => &mut map.boost,
                } = Some(number(value()?)?);
                1
            }
            "-texres" => {
                let text = value()?;
                map.resolution = Some(text.parse().map_err(|_| {
                    wrong(format!("{} is not a whole number", quoted(text.as_bytes())))
                })?);
                1
            }
            "-clamp" | "-blendu" | "-blendv" | "-cc" => {
                *match flag {
                    "-clamp" => &mut map.clamp,
                    "-blendu" => &mut map.blend_u,
                    "-blendv" => &mut map.blend_v,
                    _ => &mut map.color_correction,
                } = Some(on_off()?);
                1
            }
            "-imfchan" => {
                let name = value()?;
                let channel =
                    Channel::from_name(name).ok_or_else(|| not_one_of(name, Channel::NAMES))?;
                map.channel = Some(channel);
                1
            }
            "-type" => {
                let name = value()?;
                let projection = Projection::from_name(name)
                    .ok_or_else(|| not_one_of(name, Projection::NAMES))?;
                map.projection = Some(projection);
                1
            }
            _ => break,
        };
        at += 1 + taken;
    }
    let Some(&(path_start, _)) = tokens.get(at) else {
        return Err(error(line, format!("{key} has no file name")));
    };
    map.path = rest[path_start..].to_string();
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::obj::Dialect;

    #[test]
    fn blenders_layout_reads_back() {
        let text = "# Blender 3.4.1 MTL File: 'None'\n# www.blender.org\n\nnewmtl wood\nNs 250.000000\n\
                    Ka 1.000000 1.000000 1.000000\nKd 0.800000 0.800000 0.800000\nNi 1.450000\n\
                    d 1.000000\nillum 2\nPr 0.500000\nTf 0.250000 0.250000 0.250000\nTf xyz 1 1 1\n\
                    sharpness 60\nmap_Kd -o 0.5 0.25 0 -s 2 2 1 -bm 0.700000 tex/wood grain.png\n";
        let library = parse_mtl(text.as_bytes()).unwrap();
        assert_eq!(
            library.header,
            ["Blender 3.4.1 MTL File: 'None'", "www.blender.org"]
        );
        let wood = &library.materials[0];
        assert_eq!(wood.specular_exponent, Some(250.0));
        assert_eq!(wood.specular, None);
        assert_eq!(
            (wood.roughness, wood.transmission_filter),
            (Some(0.5), Some([0.25; 3]))
        );
        // What no field holds is kept as it was, in order.
        let kept = [("Tf", "xyz 1 1 1"), ("sharpness", "60")].map(|(k, v)| (k.into(), v.into()));
        assert_eq!(wood.statements, kept);
        let map = &wood.maps[0];
        assert_eq!(map.offset, Some([0.5, 0.25, 0.0]));
        assert_eq!(
            (map.scale, map.bump_multiplier),
            (Some([2.0, 2.0, 1.0]), Some(0.7))
        );
        assert_eq!(map.path, "tex/wood grain.png");
        let mut out = Vec::new();
        let (materials, header) = (&library.materials, &library.header);
        crate::obj::write_mtl_to(&mut out, materials, header, Dialect::default()).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), text);
    }

    #[test]
    fn errors_name_the_line() {
        let error = |text: &str| parse_mtl(text.as_bytes()).unwrap_err().to_string();
        assert_eq!(error("Kd 1 1 1\n"), "line 1: \"Kd\" before any newmtl");
        // Untrusted text is quoted short and escaped.
        assert_eq!(
            error("root:x:0:0:root:/root:/bin/bash\n"),
            "line 1: \"root:x:0:0:root:/root:/b\"… before any newmtl"
        );
        assert_eq!(
            error("newmtl a\nNs x\n"),
            "line 2: Ns: \"x\" is not a number"
        );
        assert_eq!(
            error("newmtl a\nmap_Kd -s\n"),
            "line 2: map_Kd: -s wants 1 value(s)"
        );
    }
}
