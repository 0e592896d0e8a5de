//! OpenEXR's header in front of each HTJ2K chunk's codestream: the magic
//! `HT`, a big-endian `u32` payload length, and a payload that starts with
//! the number of channels and, per JPEG 2000 component, the index of the
//! channel it holds (R, G and B are moved to components 0 to 2, so that the
//! color transform applies to them). Bytes of the payload past the map are
//! skipped, as OpenEXR skips them.

use crate::Result;
use crate::exr::attribute::Channel;
use crate::exr::cursor::Cursor;

/// `HT`: the first two bytes of every HTJ2K chunk.
pub(super) const MAGIC: u16 = u16::from_be_bytes(*b"HT");

/// The chunk's channel map and its codestream.
pub(super) struct Chunk<'a> {
    /// Per component, the channel (by its index in the part) it holds.
    pub(super) channels: Vec<usize>,
    /// The JPEG 2000 codestream.
    pub(super) codestream: &'a [u8],
}

/// Reads the header of `packed`, which must map `channels` channels.
pub(super) fn read(packed: &[u8], channels: usize) -> Result<Chunk<'_>> {
    let mut cursor = Cursor::new(packed, 0);
    if cursor.u16_be("an HTJ2K chunk's magic number")? != MAGIC {
        return Err(cursor.corrupt("an HTJ2K chunk without its magic number"));
    }
    let length = cursor.u32_be("an HTJ2K chunk's header length")? as usize;
    let payload = cursor.take(length, "an HTJ2K chunk's header, longer than the chunk")?;
    let mut map = Cursor::new(payload, 6);
    let count = usize::from(map.u16_be("an HTJ2K chunk's channel count")?);
    if count != channels {
        return Err(map.corrupt("an HTJ2K chunk maps another number of channels than the part has"));
    }
    let mut seen = vec![false; count];
    let mut mapped = Vec::with_capacity(count);
    for _ in 0..count {
        let channel = usize::from(map.u16_be("an HTJ2K chunk's channel map")?);
        if channel >= count || std::mem::replace(&mut seen[channel], true) {
            return Err(map.corrupt(
                "an HTJ2K chunk's channel map names a channel twice or one past the last",
            ));
        }
        mapped.push(channel);
    }
    let codestream = &packed[6 + length..];
    if codestream.is_empty() {
        return Err(cursor.corrupt("an HTJ2K chunk without its codestream"));
    }
    Ok(Chunk {
        channels: mapped,
        codestream,
    })
}

/// Appends the header of a chunk whose component `i` holds channel
/// `channels[i]`.
pub(super) fn write(channels: &[usize], out: &mut Vec<u8>) {
    out.extend_from_slice(&MAGIC.to_be_bytes());
    let length = 2 + 2 * channels.len() as u32;
    out.extend_from_slice(&length.to_be_bytes());
    out.extend_from_slice(&(channels.len() as u16).to_be_bytes());
    for &channel in channels {
        out.extend_from_slice(&(channel as u16).to_be_bytes());
    }
}

/// Per channel, the component that holds it: `map` (per component, its
/// channel) inverted.
pub(super) fn components_of(map: &[usize]) -> Vec<usize> {
    let mut component_of = vec![0; map.len()];
    for (component, &channel) in map.iter().enumerate() {
        component_of[channel] = component;
    }
    component_of
}

/// Per component, the channel it holds, as OpenEXR's encoder maps them;
/// and whether components 0 to 2 are red, green and blue (of one type and
/// sampling), for the color transform. Red, green and blue are channels
/// named `R`, `G`, `B` or `red`, `green`, `blue` in any case, alone or
/// after one layer prefix (the first such channel's); the other channels
/// follow in their order.
pub(super) fn channel_map(channels: &[Channel]) -> (Vec<usize>, bool) {
    let triplets = [["r", "g", "b"], ["red", "green", "blue"]];
    // Per triplet: the channel of each name, and the prefix they share.
    let mut found: [([Option<usize>; 3], Option<&str>); 2] = [([None; 3], None); 2];
    for (i, channel) in channels.iter().enumerate() {
        let name = channel.name.as_str();
        let (prefix, suffix) = match name.rfind('.') {
            Some(dot) => (&name[..dot], &name[dot + 1..]),
            None => ("", name),
        };
        for (names, (indices, shared)) in triplets.iter().zip(&mut found) {
            if shared.is_some_and(|p| p != prefix) {
                continue;
            }
            let matched =
                (0..3).find(|&k| indices[k].is_none() && suffix.eq_ignore_ascii_case(names[k]));
            if let Some(k) = matched {
                indices[k] = Some(i);
                *shared = Some(prefix);
                break;
            }
        }
    }
    let alike = |a: &Channel, b: &Channel| {
        (a.pixel_type, a.x_sampling, a.y_sampling) == (b.pixel_type, b.x_sampling, b.y_sampling)
    };
    let rgb = found.iter().find_map(|(indices, _)| match *indices {
        [Some(r), Some(g), Some(b)]
            if alike(&channels[r], &channels[g]) && alike(&channels[r], &channels[b]) =>
        {
            Some([r, g, b])
        }
        _ => None,
    });
    match rgb {
        Some(first) => {
            let mut map = first.to_vec();
            map.extend((0..channels.len()).filter(|i| !first.contains(i)));
            (map, true)
        }
        None => ((0..channels.len()).collect(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_written_reads_back_and_damage_is_refused() {
        let mut out = Vec::new();
        write(&[2, 1, 0, 3], &mut out);
        assert_eq!(out, b"HT\0\0\0\x0a\0\x04\0\x02\0\x01\0\0\0\x03");
        out.extend_from_slice(b"\xff\x4f");
        let chunk = read(&out, 4).unwrap();
        assert_eq!(chunk.channels, [2, 1, 0, 3]);
        assert_eq!(chunk.codestream, b"\xff\x4f");
        // Bytes past the map within the payload are skipped.
        let mut longer = b"HT\0\0\0\x05\0\x01\0\0\x99".to_vec();
        longer.push(0xff);
        assert_eq!(read(&longer, 1).unwrap().codestream, b"\xff");
        let damaged: [(&[u8], usize); 6] = [
            (b"HX\0\0\0\x04\0\x01\0\0\xff", 1),
            (b"HT\0\0\0\x40\0\x01\0\0\xff", 1),
            (b"HT\0\0\0\x04\0\x01\0\0\xff", 2),
            (b"HT\0\0\0\x06\0\x02\0\x01\0\x01\xff", 2),
            (b"HT\0\0\0\x06\0\x02\0\x00\0\x02\xff", 2),
            (b"HT\0\0\0\x04\0\x01\0\0", 1),
        ];
        for (bytes, channels) in damaged {
            assert!(
                matches!(read(bytes, channels), Err(crate::Error::Corrupt { .. })),
                "{bytes:?}"
            );
        }
    }
}
