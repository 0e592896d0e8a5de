//! Delta of little-endian 16- or 32-bit words along a row: each word after
//! the first becomes its difference from the previous one (mod 2^16 or
//! 2^32). OpenEXR 3.5's ZSTD method applies it to each channel's row.

/// Delta-codes `row`, a sequence of `width`-byte (2 or 4) little-endian words.
pub fn delta_encode_words(row: &mut [u8], width: usize) {
    match width {
        2 => encode::<2>(row, |a, b| {
            (u16::from_le_bytes(a).wrapping_sub(u16::from_le_bytes(b))).to_le_bytes()
        }),
        4 => encode::<4>(row, |a, b| {
            (u32::from_le_bytes(a).wrapping_sub(u32::from_le_bytes(b))).to_le_bytes()
        }),
        _ => panic!("word width {width}: 2 or 4"),
    }
}

/// The inverse of [`delta_encode_words`].
pub fn delta_decode_words(row: &mut [u8], width: usize) {
    match width {
        2 => decode::<2>(row, |d, p| {
            (u16::from_le_bytes(d).wrapping_add(u16::from_le_bytes(p))).to_le_bytes()
        }),
        4 => decode::<4>(row, |d, p| {
            (u32::from_le_bytes(d).wrapping_add(u32::from_le_bytes(p))).to_le_bytes()
        }),
        _ => panic!("word width {width}: 2 or 4"),
    }
}

fn encode<const W: usize>(row: &mut [u8], sub: fn([u8; W], [u8; W]) -> [u8; W]) {
    let mut words = row.chunks_exact_mut(W);
    let Some(first) = words.next() else { return };
    let mut previous: [u8; W] = (&*first).try_into().expect("W bytes");
    for word in words {
        let current: [u8; W] = (&*word).try_into().expect("W bytes");
        word.copy_from_slice(&sub(current, previous));
        previous = current;
    }
}

fn decode<const W: usize>(row: &mut [u8], add: fn([u8; W], [u8; W]) -> [u8; W]) {
    let mut words = row.chunks_exact_mut(W);
    let Some(first) = words.next() else { return };
    let mut previous: [u8; W] = (&*first).try_into().expect("W bytes");
    for word in words {
        previous = add((&*word).try_into().expect("W bytes"), previous);
        word.copy_from_slice(&previous);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_deltas_round_trip() {
        for width in [2, 4] {
            let src: Vec<u8> = (0..(width * 50) as u32)
                .map(|i| (i * 91 % 256) as u8)
                .collect();
            let mut coded = src.clone();
            delta_encode_words(&mut coded, width);
            assert_eq!(coded[..width], src[..width]);
            delta_decode_words(&mut coded, width);
            assert_eq!(coded, src);
        }
        let mut two = [5, 0, 3, 0];
        delta_encode_words(&mut two, 2);
        assert_eq!(two, [5, 0, 0xfe, 0xff]);
    }
}
