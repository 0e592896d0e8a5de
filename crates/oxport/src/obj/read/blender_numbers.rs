//! Numbers as Blender's importer reads them (`parse_floats`): from a cursor
//! that moves along the line, each number the longest one found there after
//! spaces and a `+`, or a fallback value where none is found, the cursor
//! then left where it is (so that every number after it falls back too).
//! `1.#IND` is 1 and a stuck cursor; `v 1 2` has a z of 0. Blender's
//! spaces are the control characters, the space and `\\`.

/// `N` numbers from `text[*at..]`, `fallback` for those not found; `at`
/// moves past each number read.
pub(super) fn blender_floats<const N: usize>(
    text: &[u8],
    at: &mut usize,
    fallback: f32,
) -> [f32; N] {
    let mut values = [fallback; N];
    for value in &mut values {
        let start = number_start(text, *at);
        let length = number_length(&text[start..]);
        let parsed = std::str::from_utf8(&text[start..start + length])
            .ok()
            .and_then(|t| t.parse::<f32>().ok());
        if let Some(parsed) = parsed {
            *value = parsed;
            *at = start + length;
        }
    }
    values
}

/// An integer as Blender's importer reads one (`parse_int`): after spaces
/// and a `+`, an optional `-` and digits; `None` where none is found or it
/// does not fit an `i32`. `at` moves past the spaces, the `+` and the
/// digits, as C++'s `from_chars` leaves its cursor (past the digits of a
/// number out of range too).
pub(super) fn blender_int(text: &[u8], at: &mut usize) -> Option<i32> {
    *at = number_start(text, *at);
    let start = *at;
    let sign = usize::from(text.get(start) == Some(&b'-'));
    let digits = text[(start + sign).min(text.len())..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return None;
    }
    *at = start + sign + digits;
    std::str::from_utf8(&text[start..*at]).ok()?.parse().ok()
}

/// A space to Blender's importer (`is_whitespace`).
pub(super) fn is_space(b: u8) -> bool {
    b <= b' ' || b == b'\\'
}

/// Where `text` goes on from `at` past Blender's spaces (`drop_whitespace`).
pub(super) fn past_spaces(text: &[u8], at: usize) -> usize {
    at + text[at.min(text.len())..]
        .iter()
        .take_while(|&&b| is_space(b))
        .count()
}

/// Where a number from `at` starts: past Blender's spaces and one `+`
/// (`drop_whitespace`, then `drop_plus`).
fn number_start(text: &[u8], at: usize) -> usize {
    let start = past_spaces(text, at);
    start + usize::from(text.get(start) == Some(&b'+'))
}

/// The length of the number `text` starts with (0: none): a decimal with
/// an optional sign, fraction and exponent, or `inf`, `infinity` or `nan`
/// (any case), as C++'s `from_chars` takes them.
fn number_length(text: &[u8]) -> usize {
    let sign = usize::from(text.first() == Some(&b'-'));
    let rest = &text[sign..];
    for word in [&b"infinity"[..], b"inf", b"nan"] {
        if rest.len() >= word.len() && rest[..word.len()].eq_ignore_ascii_case(word) {
            return sign + word.len();
        }
    }
    let digits = |from: usize| {
        rest[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let whole = digits(0);
    let mut end = whole;
    let mut fraction = 0;
    if rest.get(end) == Some(&b'.') {
        fraction = digits(end + 1);
        end += 1 + fraction;
    }
    if whole + fraction == 0 {
        return 0;
    }
    if matches!(rest.get(end), Some(b'e' | b'E')) {
        let signed = usize::from(matches!(rest.get(end + 1), Some(b'+' | b'-')));
        let exponent = digits(end + 1 + signed);
        if exponent > 0 {
            end += 1 + signed + exponent;
        }
    }
    sign + end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read<const N: usize>(text: &str, fallback: f32) -> ([f32; N], usize) {
        let mut at = 0;
        let values = blender_floats::<N>(text.as_bytes(), &mut at, fallback);
        (values, at)
    }

    #[test]
    fn numbers_are_read_as_blenders_importer_reads_them() {
        assert_eq!(read::<3>(" 1 -2.5 +3e2", 0.0), ([1.0, -2.5, 300.0], 12));
        assert_eq!(
            read::<3>(" 1.#IND -1.#IND 1.#IND", 0.0),
            ([1.0, 0.0, 0.0], 3)
        );
        assert_eq!(read::<3>(" 1 2", 0.0), ([1.0, 2.0, 0.0], 4));
        assert_eq!(read::<2>(" .5 5. ", 7.0), ([0.5, 5.0], 6));
        assert_eq!(read::<2>(" 1e 2", 0.0), ([1.0, 0.0], 2));
        let ([a, b, c], _) = read::<3>(" nan -INF Infinity", 0.0);
        assert!(a.is_nan() && b == f32::NEG_INFINITY && c == f32::INFINITY);
        assert_eq!(read::<3>(" x 1 2", -1.0), ([-1.0; 3], 0));
        assert_eq!(read::<1>(" -", 4.0), ([4.0], 0));
    }

    #[test]
    fn integers_are_read_as_blenders_importer_reads_them() {
        let read = |text: &str| {
            let mut at = 0;
            let value = blender_int(text.as_bytes(), &mut at);
            (value, at)
        };
        assert_eq!(read(" 12 3"), (Some(12), 3));
        assert_eq!(read("\t+7"), (Some(7), 3));
        assert_eq!(read(" -4/2"), (Some(-4), 3));
        assert_eq!(read(" 2.5"), (Some(2), 2));
        assert_eq!(read(" +-1"), (Some(-1), 4));
        assert_eq!(read(" x"), (None, 1));
        assert_eq!(read(" ++3"), (None, 2));
        assert_eq!(read(" -"), (None, 1));
        assert_eq!(read(" 99999999999 2"), (None, 12));
        assert_eq!(read(" "), (None, 1));
        assert_eq!(read("+"), (None, 1));
    }
}
