//! Hex colors as CSS writes them: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`.

use crate::{Error, Result};

/// The sRGB color and alpha of a hex color, each in [0, 1].
pub fn parse_hex(text: &str) -> Result<[f64; 4]> {
    let fail = |why: String| Error::invalid(format!("color {text:?}: {why}"));
    let digits = text
        .strip_prefix('#')
        .ok_or_else(|| fail("a hex color starts with '#'".into()))?;
    if let Some((at, c)) = digits.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(fail(format!(
            "{c:?} at position {} is not a hex digit",
            at + 1
        )));
    }
    let value = |s: &str| u8::from_str_radix(s, 16).expect("checked hex digits");
    let channels: Vec<u8> = match digits.len() {
        3 | 4 => (0..digits.len())
            .map(|i| value(&digits[i..i + 1]) * 17)
            .collect(),
        6 | 8 => (0..digits.len() / 2)
            .map(|i| value(&digits[2 * i..2 * i + 2]))
            .collect(),
        n => {
            return Err(fail(format!(
                "{n} digits; a hex color has 3, 4, 6 or 8 (#rgb, #rgba, #rrggbb, #rrggbbaa)"
            )));
        }
    };
    let alpha = channels.get(3).copied().unwrap_or(255);
    Ok([channels[0], channels[1], channels[2], alpha].map(|v| f64::from(v) / 255.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_css_length_parses_and_mistakes_say_where() {
        assert_eq!(parse_hex("#fff").unwrap(), [1.0; 4]);
        assert_eq!(parse_hex("#FF000080").unwrap()[..3], [1.0, 0.0, 0.0]);
        assert_eq!(parse_hex("#ff000080").unwrap()[3], 128.0 / 255.0);
        assert_eq!(parse_hex("#0a0b").unwrap(), parse_hex("#00aa00bb").unwrap());
        let missing = parse_hex("ffffff").unwrap_err().to_string();
        assert!(missing.contains("starts with '#'"), "{missing}");
        let digit = parse_hex("#12g456").unwrap_err().to_string();
        assert!(digit.contains("'g' at position 3"), "{digit}");
        let length = parse_hex("#12345").unwrap_err().to_string();
        assert!(length.contains("5 digits"), "{length}");
        assert!(parse_hex("#ééé").is_err());
    }
}
