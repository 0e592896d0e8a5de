//! The lab's chart: compression ratio against compression speed (log
//! scale), one point per filter × codec × level, as an 8-bit sRGB PNG.
//! Colour says the filter, the marker the codec (disc: deflate, square:
//! zstd, cross: HTJ2K, diamond: ZFP), the label the level. Text uses a 3×5 pixel font drawn at 2×.

use std::io::Write;

use super::{Codec, Filter, Measure};
use oxport::raster::{Canvas, Rgb};
use oxport::{Error, Result};

const WIDTH: usize = 1100;
const HEIGHT: usize = 700;
const LEFT: usize = 90;
const RIGHT: usize = 250;
const TOP: usize = 50;
const BOTTOM: usize = 80;
const SCALE: usize = 2;

const BLACK: Rgb = [0, 0, 0];
const GREY: Rgb = [215, 215, 215];
const COLORS: [Rgb; 5] = [
    [110, 110, 110],
    [214, 39, 40],
    [31, 119, 180],
    [44, 160, 44],
    [148, 103, 189],
];

/// Ticks for a log axis from `lo` to `hi`: 1, 2 and 5 times powers of 10.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut ticks = Vec::new();
    let mut power = 10f64.powf(lo.log10().floor());
    while power <= hi {
        for m in [1.0, 2.0, 5.0] {
            let t = power * m;
            if t >= lo && t <= hi {
                ticks.push(t);
            }
        }
        power *= 10.0;
    }
    ticks
}

fn number(v: f64) -> String {
    if v >= 10.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// Draws the measures as a PNG into `out`; `title` goes on top.
pub fn draw(measures: &[Measure], title: &str, out: impl Write) -> Result<()> {
    if measures.is_empty() {
        return Err(Error::invalid("no measures to draw"));
    }
    let mut canvas = Canvas::new(WIDTH, HEIGHT, [255; 3])?;
    let speeds: Vec<f64> = measures.iter().map(Measure::compress_mb_s).collect();
    let ratios: Vec<f64> = measures.iter().map(Measure::ratio).collect();
    let (x_lo, x_hi) = (
        speeds.iter().copied().fold(f64::INFINITY, f64::min) / 1.3,
        speeds.iter().copied().fold(0.0, f64::max) * 1.3,
    );
    let (r_lo, r_hi) = (
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
        ratios.iter().copied().fold(0.0, f64::max),
    );
    let pad = ((r_hi - r_lo) * 0.08).max(0.02);
    let (y_lo, y_hi) = (r_lo - pad, r_hi + pad);
    let (plot_w, plot_h) = (
        (WIDTH - LEFT - RIGHT) as f64,
        (HEIGHT - TOP - BOTTOM) as f64,
    );
    let px = |speed: f64| {
        LEFT as i64
            + ((speed.log10() - x_lo.log10()) / (x_hi.log10() - x_lo.log10()) * plot_w) as i64
    };
    let py =
        |ratio: f64| (HEIGHT - BOTTOM) as i64 - ((ratio - y_lo) / (y_hi - y_lo) * plot_h) as i64;

    // Grid, ticks and axis labels.
    for t in log_ticks(x_lo, x_hi) {
        let x = px(t);
        canvas.rect(x, TOP as i64, x, (HEIGHT - BOTTOM) as i64, GREY);
        let label = number(t);
        canvas.text(
            x - Canvas::text_width(&label, SCALE) / 2,
            (HEIGHT - BOTTOM + 10) as i64,
            &label,
            SCALE,
            BLACK,
        );
    }
    let step = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0]
        .into_iter()
        .find(|s| (y_hi - y_lo) / s <= 8.0)
        .unwrap_or(10.0);
    let mut t = (y_lo / step).ceil() * step;
    while t <= y_hi {
        let y = py(t);
        canvas.rect(LEFT as i64, y, (WIDTH - RIGHT) as i64, y, GREY);
        let label = format!("{t:.2}");
        canvas.text(
            LEFT as i64 - 10 - Canvas::text_width(&label, SCALE),
            y - 5,
            &label,
            SCALE,
            BLACK,
        );
        t += step;
    }
    canvas.rect(
        LEFT as i64,
        TOP as i64,
        LEFT as i64,
        (HEIGHT - BOTTOM) as i64,
        BLACK,
    );
    canvas.rect(
        LEFT as i64,
        (HEIGHT - BOTTOM) as i64,
        (WIDTH - RIGHT) as i64,
        (HEIGHT - BOTTOM) as i64,
        BLACK,
    );
    let x_label = "compression speed, MB/s per core (log scale)";
    canvas.text(
        (LEFT as i64 + (WIDTH - RIGHT) as i64 - Canvas::text_width(x_label, SCALE)) / 2,
        (HEIGHT - 40) as i64,
        x_label,
        SCALE,
        BLACK,
    );
    canvas.text(10, 16, title, SCALE, BLACK);
    canvas.text(10, TOP as i64 - 20, "ratio", SCALE, BLACK);

    // Points, labelled with the level.
    for (m, (&speed, &ratio)) in measures.iter().zip(speeds.iter().zip(&ratios)) {
        let color =
            COLORS[Filter::ALL.iter().position(|f| *f == m.filter).unwrap_or(0) % COLORS.len()];
        let (x, y) = (px(speed), py(ratio));
        let level = match m.codec {
            Codec::Deflate(level) => {
                canvas.disc(x, y, 5, color);
                level
            }
            Codec::Zstd(level) => {
                canvas.rect(x - 4, y - 4, x + 4, y + 4, color);
                level
            }
            Codec::Htj2k => {
                cross(&mut canvas, x, y, color);
                canvas.text(x + 8, y - 12, "htj2k", SCALE, color);
                continue;
            }
            #[cfg(feature = "zfp")]
            Codec::Zfp => {
                diamond(&mut canvas, x, y, color);
                canvas.text(x + 8, y - 12, "zfp", SCALE, color);
                continue;
            }
        };
        canvas.text(x + 8, y - 12, &level.to_string(), SCALE, color);
    }

    // Legend.
    let lx = (WIDTH - RIGHT + 20) as i64;
    let mut ly = TOP as i64;
    for (i, filter) in Filter::ALL.iter().enumerate() {
        if measures.iter().any(|m| m.filter == *filter) {
            canvas.rect(lx, ly, lx + 12, ly + 9, COLORS[i]);
            canvas.text(lx + 20, ly, filter.name(), SCALE, BLACK);
            ly += 24;
        }
    }
    ly += 12;
    canvas.disc(lx + 6, ly + 5, 5, BLACK);
    canvas.text(lx + 20, ly, "deflate", SCALE, BLACK);
    ly += 24;
    canvas.rect(lx + 2, ly + 1, lx + 10, ly + 9, BLACK);
    canvas.text(lx + 20, ly, "zstd", SCALE, BLACK);
    ly += 24;
    cross(&mut canvas, lx + 6, ly + 5, BLACK);
    canvas.text(lx + 20, ly, "htj2k", SCALE, BLACK);
    ly += 24;
    #[cfg(feature = "zfp")]
    {
        diamond(&mut canvas, lx + 6, ly + 5, BLACK);
        canvas.text(lx + 20, ly, "zfp reversible", SCALE, BLACK);
        ly += 24;
    }
    canvas.text(lx, ly, "labels: level", SCALE, BLACK);

    canvas.write_png(out)
}

/// A cross of 11 pixels centred on (`x`, `y`).
fn cross(canvas: &mut Canvas, x: i64, y: i64, color: Rgb) {
    canvas.rect(x - 5, y - 1, x + 5, y + 1, color);
    canvas.rect(x - 1, y - 5, x + 1, y + 5, color);
}

/// A diamond of 11 pixels centred on (`x`, `y`).
#[cfg(feature = "zfp")]
fn diamond(canvas: &mut Canvas, x: i64, y: i64, color: Rgb) {
    for d in 0..=5i64 {
        canvas.rect(x - (5 - d), y - d, x + (5 - d), y - d, color);
        canvas.rect(x - (5 - d), y + d, x + (5 - d), y + d, color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_are_pngs_of_the_stated_size() {
        let measures: Vec<Measure> = Codec::LEVELS
            .iter()
            .enumerate()
            .map(|(i, &codec)| Measure {
                filter: Filter::ALL[i % 5],
                codec,
                raw: 1_000_000,
                packed: 400_000 + 10_000 * i as u64,
                compress_seconds: 0.01 * (i + 1) as f64,
                decompress_seconds: 0.002,
            })
            .collect();
        let mut png_bytes = Vec::new();
        draw(&measures, "test chart", &mut png_bytes).unwrap();
        assert_eq!(&png_bytes[..8], b"\x89PNG\r\n\x1a\n");
        let decoder = png::Decoder::new(std::io::Cursor::new(&png_bytes));
        let reader = decoder.read_info().unwrap();
        assert_eq!(
            (reader.info().width, reader.info().height),
            (WIDTH as u32, HEIGHT as u32)
        );
        assert!(draw(&[], "empty", Vec::new()).is_err());
        assert_eq!(log_ticks(3.0, 120.0), vec![5.0, 10.0, 20.0, 50.0, 100.0]);
    }
}
