//! OpenEXR's byte predictor before RLE and ZIP: each byte after the first
//! becomes its difference from the previous one, plus 128 (mod 256).

/// Replaces `bytes[i]` (i ≥ 1) with `bytes[i] - bytes[i - 1] + 128`.
pub fn delta_encode(bytes: &mut [u8]) {
    let Some(&first) = bytes.first() else { return };
    let mut previous = first;
    for b in &mut bytes[1..] {
        let current = *b;
        *b = current.wrapping_sub(previous).wrapping_add(128);
        previous = current;
    }
}

/// The inverse of [`delta_encode`].
pub fn delta_decode(bytes: &mut [u8]) {
    let Some(&first) = bytes.first() else { return };
    let mut previous = first;
    for b in &mut bytes[1..] {
        previous = previous.wrapping_add(*b).wrapping_sub(128);
        *b = previous;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_round_trips_and_matches_the_definition() {
        let src: Vec<u8> = (0..300u32).map(|i| (i * i % 251) as u8).collect();
        let mut coded = src.clone();
        delta_encode(&mut coded);
        assert_eq!(coded[0], src[0]);
        assert_eq!(coded[5], src[5].wrapping_sub(src[4]).wrapping_add(128));
        delta_decode(&mut coded);
        assert_eq!(coded, src);
        delta_encode(&mut []);
    }
}
