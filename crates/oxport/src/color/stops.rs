//! Stops written as CSS writes them in a gradient: comma-separated colors,
//! each optionally followed by a position in percent (`#000, #f00 30%, #fff`).

use super::gradient::Stop;
use super::hex::parse_hex;
use crate::{Error, Result};

/// The stops of `text`.
pub fn parse_stops(text: &str) -> Result<Vec<Stop>> {
    let stops = text
        .split(',')
        .enumerate()
        .map(|(i, item)| {
            let mut words = item.split_whitespace();
            let color = words
                .next()
                .ok_or_else(|| Error::invalid(format!("stop {}: empty (in {text:?})", i + 1)))?;
            let color = parse_hex(color).map_err(|e| e.within(&format!("stop {}", i + 1)))?;
            let position = match (words.next(), words.next()) {
                (None, _) => None,
                (Some(p), None) => Some(percent(p).ok_or_else(|| {
                    Error::invalid(format!(
                        "stop {}: position {p:?} is not a percentage like 30%",
                        i + 1
                    ))
                })?),
                (Some(_), Some(extra)) => {
                    return Err(Error::invalid(format!(
                        "stop {}: unexpected {extra:?} after the position",
                        i + 1
                    )));
                }
            };
            Ok(Stop { color, position })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(stops)
}

fn percent(text: &str) -> Option<f64> {
    let value: f64 = text.strip_suffix('%')?.parse().ok()?;
    value.is_finite().then_some(value / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors_positions_and_mistakes() {
        let stops = parse_stops("#000, #ff0000 30%,#fff").unwrap();
        assert_eq!(stops.len(), 3);
        assert_eq!(stops[1].position, Some(0.3));
        assert_eq!(stops[1].color, [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(stops[2].position, None);
        let bad = parse_stops("#000, #fff 50").unwrap_err().to_string();
        assert!(
            bad.contains("stop 2") && bad.contains("percentage"),
            "{bad}"
        );
        let hex = parse_stops("#000,red").unwrap_err().to_string();
        assert!(hex.contains("stop 2") && hex.contains("'#'"), "{hex}");
        assert!(
            parse_stops("#000,,#fff")
                .unwrap_err()
                .to_string()
                .contains("empty")
        );
        assert!(parse_stops("#000 1% 2%").is_err());
    }
}
