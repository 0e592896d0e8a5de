//! The one-pass path for the lines most of a file is made of: plain `v`,
//! `vt`, `vn` with decimal numbers and `f` with positive indices, read
//! straight from the bytes. Anything else is left to [`super::parse`].

use super::block::{Block, corner_layout, end_face, vertex};

/// Whitespace inside a line (`\n` ends it).
#[inline(always)]
pub(super) fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0c')
}

/// The statements most of a file is made of, in their plain form (`v`, `vt`
/// and `vn` with decimal numbers, faces with positive indices), parsed in one
/// pass over the bytes: the start of the next line, or `None` (and nothing
/// changed) for anything else, which [`parse_line`] then reads.
#[inline]
pub(super) fn common_line(block: &mut Block, text: &[u8], at: usize) -> Option<usize> {
    match text.get(at..at + 3)? {
        [b'v', b' ', _] => {
            // (A fourth number, a weight, is the general path's.)
            let (values, count, next) = decimals::<3>(text, at + 2)?;
            (count == 3).then_some(())?;
            vertex(block, [values[0], values[1], values[2]], None);
            Some(next)
        }
        [b'v', b't', b' '] => {
            let (values, count, next) = decimals::<3>(text, at + 3)?;
            (count > 0).then_some(())?;
            block.uvs.push([values[0], values[1]]);
            Some(next)
        }
        [b'v', b'n', b' '] => {
            let (values, count, next) = decimals::<3>(text, at + 3)?;
            (count == 3).then_some(())?;
            block.normals.push(values);
            Some(next)
        }
        [b'f', b' ', _] => common_face(block, text, at + 2),
        _ => None,
    }
}

/// Up to `N` decimal numbers from `at` to the line's end: the numbers, how
/// many, and the start of the next line.
#[inline(always)]
pub(super) fn decimals<const N: usize>(
    text: &[u8],
    mut at: usize,
) -> Option<([f32; N], usize, usize)> {
    let mut values = [0.0f32; N];
    let mut count = 0;
    loop {
        while at < text.len() && is_blank(text[at]) {
            at += 1;
        }
        match text.get(at) {
            None => return Some((values, count, at)),
            Some(b'\n') => return Some((values, count, at + 1)),
            Some(_) if count == N => return None,
            Some(_) => {
                let (value, next) = decimal(text, at)?;
                values[count] = value;
                count += 1;
                at = next;
            }
        }
    }
}

/// Powers of ten that are exact in `f64`.
pub(super) const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// A number `[-]digits[.digits]` at `at` with at most 15 digits, ended by
/// whitespace or the text's end; the number and where it ends, or `None` for
/// any other (which `str::parse` then reads).
///
/// The digits as one integer and the power of ten are exact in `f64`, so one
/// division gives the quotient correctly rounded to `f64` (Clinger's fast
/// path). Rounding that again to `f32` gives the correctly rounded `f32`, as
/// `str::parse` does, unless the `f64` is exactly halfway between two `f32`
/// (every such midpoint is an `f64`: a quotient on one side of it cannot
/// round past it): those few go to `str::parse`.
#[inline(always)]
pub(super) fn decimal(text: &[u8], mut at: usize) -> Option<(f32, usize)> {
    let negative = text[at] == b'-';
    at += usize::from(negative);
    let mut mantissa = 0u64;
    let mut digits = 0;
    let mut scale = 0;
    let mut digit = |mantissa: &mut u64, b: u8| {
        *mantissa = *mantissa * 10 + u64::from(b - b'0');
        digits += 1;
        digits <= 15
    };
    while let Some(&b) = text.get(at).filter(|b| b.is_ascii_digit()) {
        if !digit(&mut mantissa, b) {
            return None;
        }
        at += 1;
    }
    if text.get(at) == Some(&b'.') {
        at += 1;
        let digits_at_once = text.get(at..at + 8).map(leading_digits);
        if let Some((count @ 1..8, value)) = digits_at_once {
            // The common case: the fraction's 1 to 7 digits at once.
            if digits + count > 15 {
                return None;
            }
            mantissa = mantissa * 10u64.pow(count as u32) + u64::from(value);
            digits += count;
            scale = count;
            at += count;
        } else {
            while let Some(&b) = text.get(at).filter(|b| b.is_ascii_digit()) {
                if !digit(&mut mantissa, b) {
                    return None;
                }
                scale += 1;
                at += 1;
            }
        }
    }
    if digits == 0 || text.get(at).is_some_and(|&b| b != b'\n' && !is_blank(b)) {
        return None;
    }
    let wide = mantissa as f64 / POW10[scale];
    // The 29 bits an f32 does not keep: exactly half of its last place.
    if wide.to_bits() & 0x1fff_ffff == 0x1000_0000 {
        return None;
    }
    let value = wide as f32;
    Some((if negative { -value } else { value }, at))
}

/// How many decimal digits start these 8 bytes and, when under 8, their
/// value, with a few operations on the 8 bytes as one integer (the method of
/// Lemire's fast_float).
#[inline(always)]
pub(super) fn leading_digits(bytes: &[u8]) -> (usize, u32) {
    let chunk = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
    let values = chunk.wrapping_sub(0x3030_3030_3030_3030);
    // A byte's top bit is set where it is below '0' or above '9' (a borrow
    // or carry only reaches the bytes after the first such one).
    let outside = (values | chunk.wrapping_add(0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080;
    let count = (outside.trailing_zeros() / 8) as usize;
    match count {
        0 => return (0, 0),
        8 => return (8, 0),
        _ => {}
    }
    // The digits moved to the end of 8, after zeros: their value is that of
    // the 8 digits. Then pairs, then fours, then the eight.
    let v = (values & ((1u64 << (8 * count)) - 1)) << (8 * (8 - count));
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    const LOW: u64 = 0x0000_00ff_0000_00ff;
    let v = (v & LOW)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((v >> 16) & LOW).wrapping_mul(1 + (10_000 << 32)))
        >> 32;
    (count, v as u32)
}

/// A face whose corners are `v`, `v/t`, `v//n` or `v/t/n` with positive
/// indices under 10^9, all alike: the start of the next line, or `None` (and
/// nothing changed).
#[inline]
pub(super) fn common_face(block: &mut Block, text: &[u8], mut at: usize) -> Option<usize> {
    let start = block.corners.len();
    let next = loop {
        while at < text.len() && is_blank(text[at]) {
            at += 1;
        }
        match text.get(at) {
            None => break at,
            Some(b'\n') => break at + 1,
            Some(_) => match common_corner(text, at) {
                Some((corner, next)) => {
                    block.corners.push(corner);
                    at = next;
                }
                None => {
                    block.corners.truncate(start);
                    return None;
                }
            },
        }
    };
    let corners = &block.corners[start..];
    let first = corners.first().map(corner_layout);
    if corners.len() < 3 || corners.iter().any(|c| Some(corner_layout(c)) != first) {
        block.corners.truncate(start);
        return None;
    }
    end_face(block, corner_layout(&corners[0]));
    Some(next)
}

#[inline(always)]
pub(super) fn common_corner(text: &[u8], mut at: usize) -> Option<([i32; 3], usize)> {
    let mut corner = [0i32; 3];
    let mut slot = 0;
    loop {
        let (count, value) = index_digits(text, at)?;
        // An empty part (`v//n`, `v/`) but the position; no index 0.
        if (count == 0 && slot == 0) || (count > 0 && value == 0) {
            return None;
        }
        corner[slot] = value as i32;
        at += count;
        match text.get(at) {
            Some(b'/') if slot < 2 => {
                slot += 1;
                at += 1;
            }
            Some(&b) if b != b'\n' && !is_blank(b) => return None,
            _ => return Some((corner, at)),
        }
    }
}

/// The decimal digits at `at` (at most 9) and their value.
#[inline(always)]
pub(super) fn index_digits(text: &[u8], at: usize) -> Option<(usize, u32)> {
    if let Some(window) = text.get(at..at + 8) {
        let (count, value) = leading_digits(window);
        if count < 8 {
            return Some((count, value));
        }
    }
    let mut value = 0u32;
    let mut count = 0;
    while let Some(&b) = text.get(at + count).filter(|b| b.is_ascii_digit()) {
        if count == 9 {
            return None;
        }
        value = value * 10 + u32::from(b - b'0');
        count += 1;
    }
    Some((count, value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::obj::read::ObjectRule;
    use crate::obj::read::parse::{parse_block, parse_line};

    #[test]
    fn common_lines_parse_as_the_general_path() {
        // Lines of every form `common_line` takes or declines, each parsed by
        // it (when it takes it) and by `parse_line`: the same block.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let number = |next: &mut dyn FnMut(u64) -> u64| {
            let digits = 1 + next(17) as usize;
            let mut text: String = (0..digits)
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            if next(3) > 0 {
                text.insert(next(digits as u64 + 1) as usize, '.');
            }
            if next(3) == 0 {
                text.insert(0, '-');
            }
            text
        };
        let mut taken = 0;
        for _ in 0..20_000 {
            let line = match next(4) {
                0 => format!(
                    "v {} {} {}",
                    number(&mut next),
                    number(&mut next),
                    number(&mut next)
                ),
                1 => format!("vt {} {}", number(&mut next), number(&mut next)),
                2 => format!(
                    "vn {}\t{} {} ",
                    number(&mut next),
                    number(&mut next),
                    number(&mut next)
                ),
                _ => {
                    let corners = 3 + next(3);
                    let form = next(4);
                    let mut face = String::from("f");
                    for _ in 0..corners {
                        let i = next(20);
                        face += &match form {
                            0 => format!(" {i}"),
                            1 => format!(" {i}/{}", next(20)),
                            2 => format!(" {i}//{}", next(20)),
                            _ => format!(" {i}/{}/{}", next(20), next(20)),
                        };
                    }
                    face
                }
            };
            let text = format!("{line}\r\n");
            let plain = ObjectRule::Plain;
            let mut common = parse_block("".as_bytes(), false, plain).unwrap();
            let mut general = parse_block("".as_bytes(), false, plain).unwrap();
            let general_result = parse_line(&mut general, line.as_bytes(), 1, false, plain);
            let Some(end) = common_line(&mut common, text.as_bytes(), 0) else {
                continue;
            };
            taken += 1;
            assert_eq!(end, text.len(), "{line}");
            assert!(general_result.is_ok(), "{line}");
            let bits = |v: &[[f32; 3]]| v.iter().flatten().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&common.positions), bits(&general.positions), "{line}");
            assert_eq!(bits(&common.normals), bits(&general.normals), "{line}");
            assert_eq!(common.uvs, general.uvs, "{line}");
            assert_eq!(common.corners, general.corners, "{line}");
            assert_eq!(common.faces, general.faces, "{line}");
        }
        assert!(taken > 5_000, "{taken}");
    }

    #[test]
    fn decimals_round_as_std_at_f32_midpoints() {
        // Integers from 2^24 on are f32 midpoints every other step; and
        // decimals whose f64 quotient lands near one.
        let mut cases: Vec<String> = (16_777_200u32..16_777_300)
            .chain(33_554_400..33_554_500)
            .chain((0..2000).map(|i| 100_000_000 + i * 37))
            .map(|i| i.to_string())
            .collect();
        cases.extend((0..4000).map(|i| format!("{}.{:03}", 16_777_000 + i, i % 1000)));
        cases.extend(
            ["0.1", "-0.000001", "123456789012345", "1.00000005960464477"].map(String::from),
        );
        let mut taken = 0;
        for case in &cases {
            let text = format!("{case} ");
            let expected: f32 = case.parse().unwrap();
            if let Some((value, end)) = decimal(text.as_bytes(), 0) {
                assert_eq!(value.to_bits(), expected.to_bits(), "{case}");
                assert_eq!(end, case.len());
                taken += 1;
            }
        }
        // The fast path declines only midpoints and numbers of over 15 digits:
        // most of these it must take, or the comparison above tested nothing.
        assert!(taken > cases.len() * 9 / 10, "{taken} of {}", cases.len());
        for plain in ["0.1", "-0.000001", "123456789012345", "16777216"] {
            assert!(
                decimal(format!("{plain} ").as_bytes(), 0).is_some(),
                "{plain}"
            );
        }
        assert!(
            decimal(b"1.00000005960464477 ", 0).is_none(),
            "over 15 digits"
        );
    }
}
