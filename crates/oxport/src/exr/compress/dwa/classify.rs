//! Which channels DWA codes how: rules match a channel's name after its
//! last `.` and its type to a scheme (the lossy DCT, RLE, or as they are)
//! and, for R, G and B, a place in a triple that is turned to Y'CbCr
//! before the DCT. Version 2 chunks carry their rules; older ones use
//! fixed legacy rules.

use crate::exr::attribute::{Channel, PixelType};
use crate::{Error, Result};

/// How a channel's samples are coded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scheme {
    /// Stored as they are, then zlib.
    Unknown,
    /// 8×8 DCT blocks, quantized.
    LossyDct,
    /// Byte planes, run-length coded, then zlib.
    Rle,
}

/// One rule: a name suffix, a type, what to do with matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rule {
    suffix: Vec<u8>,
    scheme: Scheme,
    pixel_type: PixelType,
    /// R, G or B of a triple (0, 1, 2), or none.
    csc: Option<usize>,
    case_insensitive: bool,
}

/// Rules for the DCT channels (each named with its place in a triple, if
/// any), HALF or FLOAT, then `alpha` by RLE (any type).
fn rules(dct: &[(&str, Option<usize>)], alpha: &str, case_insensitive: bool) -> Vec<Rule> {
    let mut rules = Vec::new();
    for &(suffix, csc) in dct {
        for pixel_type in [PixelType::Half, PixelType::Float] {
            rules.push(Rule {
                suffix: suffix.as_bytes().to_vec(),
                scheme: Scheme::LossyDct,
                pixel_type,
                csc,
                case_insensitive,
            });
        }
    }
    for pixel_type in [PixelType::Uint, PixelType::Half, PixelType::Float] {
        rules.push(Rule {
            suffix: alpha.as_bytes().to_vec(),
            scheme: Scheme::Rle,
            pixel_type,
            csc: None,
            case_insensitive,
        });
    }
    rules
}

/// The rules of chunks before version 2: lower-case names, any case.
pub(crate) fn legacy_rules() -> Vec<Rule> {
    let dct = [
        ("r", Some(0)),
        ("red", Some(0)),
        ("g", Some(1)),
        ("grn", Some(1)),
        ("green", Some(1)),
        ("b", Some(2)),
        ("blu", Some(2)),
        ("blue", Some(2)),
        ("y", None),
        ("by", None),
        ("ry", None),
    ];
    rules(&dct, "a", true)
}

/// The rules OpenEXR writes version 2 chunks with: R, G, B (a triple), Y,
/// BY and RY by the DCT (HALF or FLOAT), A by RLE (any type), names
/// matched as they are.
pub(crate) fn default_rules() -> Vec<Rule> {
    let dct = [
        ("R", Some(0)),
        ("G", Some(1)),
        ("B", Some(2)),
        ("Y", None),
        ("BY", None),
        ("RY", None),
    ];
    rules(&dct, "A", false)
}

/// Whether `rule` applies to `channel`.
fn matches(rule: &Rule, channel: &Channel) -> bool {
    let name = channel.name.as_bytes();
    let suffix = &name[name.iter().rposition(|&b| b == b'.').map_or(0, |i| i + 1)..];
    let same = if rule.case_insensitive {
        rule.suffix.eq_ignore_ascii_case(suffix)
    } else {
        rule.suffix == suffix
    };
    same && rule.pixel_type == channel.pixel_type
}

/// Appends the rules a version 2 chunk starts with: their size in bytes
/// (with its own 2), then each of `rules` that some channel matches, in
/// order (OpenEXR's `writeRelevantChannelRules`).
pub(crate) fn write_rules(rules: &[Rule], channels: &[Channel], out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(&[0, 0]);
    for rule in rules
        .iter()
        .filter(|r| channels.iter().any(|c| matches(r, c)))
    {
        out.extend_from_slice(&rule.suffix);
        out.push(0);
        let csc = rule.csc.map_or(0, |i| i as u8 + 1);
        let scheme = match rule.scheme {
            Scheme::Unknown => 0,
            Scheme::LossyDct => 1,
            Scheme::Rle => 2,
        };
        out.push((csc & 15) << 4 | scheme << 2 | u8::from(rule.case_insensitive));
        out.push(match rule.pixel_type {
            PixelType::Uint => 0,
            PixelType::Half => 1,
            PixelType::Float => 2,
        });
    }
    let size = (out.len() - start) as u16;
    out[start..start + 2].copy_from_slice(&size.to_le_bytes());
}

/// Reads the rules a version 2 chunk starts with: their size in bytes
/// (with its own 2), then each rule. Returns the rules and the bytes read.
pub(crate) fn read_rules(data: &[u8]) -> Result<(Vec<Rule>, usize)> {
    if data.len() <= 2 {
        return Err(Error::corrupt("a DWA chunk ends before its channel rules"));
    }
    let size = usize::from(u16::from_le_bytes([data[0], data[1]]));
    if size < 2 || size > data.len() {
        return Err(Error::corrupt(
            "a DWA chunk's channel rules have a bad size",
        ));
    }
    let mut rest = &data[2..size];
    let mut rules = Vec::new();
    while !rest.is_empty() {
        if rest.len() <= 3 {
            return Err(Error::corrupt("a DWA channel rule is cut short"));
        }
        let len = rest[..rest.len() - 2]
            .iter()
            .take(129)
            .position(|&b| b == 0)
            .ok_or(Error::corrupt(
                "a DWA channel rule's name is too long or unterminated",
            ))?;
        let suffix = rest[..len].to_vec();
        let (value, type_code) = (rest[len + 1], rest[len + 2]);
        rest = &rest[len + 3..];
        let csc = match (value >> 4) as i32 - 1 {
            -1 => None,
            i @ 0..=2 => Some(i as usize),
            _ => return Err(Error::corrupt("a DWA channel rule has a bad color index")),
        };
        let scheme = match (value >> 2) & 3 {
            0 => Scheme::Unknown,
            1 => Scheme::LossyDct,
            2 => Scheme::Rle,
            _ => return Err(Error::corrupt("a DWA channel rule has a bad scheme")),
        };
        let pixel_type = match type_code {
            0 => PixelType::Uint,
            1 => PixelType::Half,
            2 => PixelType::Float,
            _ => return Err(Error::corrupt("a DWA channel rule has a bad type")),
        };
        rules.push(Rule {
            suffix,
            scheme,
            pixel_type,
            csc,
            case_insensitive: value & 1 != 0,
        });
    }
    Ok((rules, size))
}

/// How the channels of a chunk are coded: each channel's scheme, and the
/// R, G, B triples (channel indices) turned to Y'CbCr, in the order of
/// their first channel's name prefix.
pub(crate) fn classify(channels: &[Channel], rules: &[Rule]) -> (Vec<Scheme>, Vec<[usize; 3]>) {
    let mut schemes = vec![Scheme::Unknown; channels.len()];
    // Name prefixes (up to and with the last '.') in order of appearance,
    // each with its R, G and B channels.
    let mut prefixes: Vec<(&[u8], [Option<usize>; 3])> = Vec::new();
    for (c, channel) in channels.iter().enumerate() {
        let name = channel.name.as_bytes();
        let cut = name.iter().rposition(|&b| b == b'.').map_or(0, |i| i + 1);
        let prefix = &name[..cut];
        let slot = match prefixes.iter().position(|(p, _)| *p == prefix) {
            Some(i) => i,
            None => {
                prefixes.push((prefix, [None; 3]));
                prefixes.len() - 1
            }
        };
        for rule in rules {
            if matches(rule, channel) {
                schemes[c] = rule.scheme;
                if let Some(i) = rule.csc {
                    prefixes[slot].1[i] = Some(c);
                }
            }
        }
    }
    let triples = prefixes
        .iter()
        .filter_map(|(_, rgb)| match *rgb {
            [Some(r), Some(g), Some(b)] => Some([r, g, b]),
            _ => None,
        })
        .filter(|rgb| {
            let sampling = |c: usize| (channels[c].x_sampling, channels[c].y_sampling);
            sampling(rgb[0]) == sampling(rgb[1]) && sampling(rgb[1]) == sampling(rgb[2])
        })
        .collect();
    (schemes, triples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgb_triples_by_prefix_and_alpha_by_rle() {
        let channels: Vec<Channel> = [
            ("A", PixelType::Half),
            ("B", PixelType::Half),
            ("G", PixelType::Half),
            ("R", PixelType::Half),
            ("left.B", PixelType::Float),
            ("left.G", PixelType::Float),
            ("left.R", PixelType::Float),
            ("Z", PixelType::Float),
        ]
        .iter()
        .map(|&(n, t)| Channel::new(n, t))
        .collect();
        let (schemes, triples) = classify(&channels, &legacy_rules());
        assert_eq!(triples, [[3, 2, 1], [6, 5, 4]]);
        assert_eq!(schemes[0], Scheme::Rle);
        assert_eq!(schemes[7], Scheme::Unknown);
        assert!(schemes[1..7].iter().all(|&s| s == Scheme::LossyDct));
    }

    #[test]
    fn written_rules_read_back() {
        // "R", DCT, csc 0, case-sensitive, HALF; then "A", RLE, UINT.
        let mut data = vec![0, 0];
        data.extend_from_slice(b"R\0");
        data.extend_from_slice(&[(1 << 4) | (1 << 2), 1]);
        data.extend_from_slice(b"A\0");
        data.extend_from_slice(&[2 << 2, 0]);
        let size = data.len() as u16;
        data[..2].copy_from_slice(&size.to_le_bytes());
        data.push(99);
        let (rules, read) = read_rules(&data).unwrap();
        assert_eq!(read, data.len() - 1);
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0].csc, Some(0));
        assert_eq!(rules[1].scheme, Scheme::Rle);
        assert!(read_rules(&data[..5]).is_err());
    }
}
