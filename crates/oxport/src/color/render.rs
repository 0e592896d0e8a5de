//! Gradient strips as a picture: for each gradient a title, then one row
//! per interpolation, labelled on the left; colors with alpha are shown
//! over a checkerboard. 8-bit sRGB PNG.

use std::io::{BufWriter, Write};
use std::path::Path;

use super::gradient::{GradientOptions, Hue, Stop, gradient};
use super::presets::presets;
use super::srgb::to_u8;
use crate::raster::{Canvas, Rgb};
use crate::{Error, Result};

/// One gradient and the interpolations to show it in.
#[derive(Clone, Debug)]
pub struct Panel {
    /// The title drawn above the strips.
    pub title: String,
    /// The gradient's stops.
    pub stops: Vec<Stop>,
    /// One strip per interpolation.
    pub rows: Vec<GradientOptions>,
}

impl Panel {
    /// A panel for each preset `name` asks for (a preset's name, or `all`),
    /// each shown in `rows`.
    pub fn presets(name: &str, rows: &[GradientOptions]) -> Result<Vec<Panel>> {
        Ok(presets(name)?
            .into_iter()
            .map(|(title, stops)| Panel {
                title: title.to_owned(),
                stops,
                rows: rows.to_vec(),
            })
            .collect())
    }
}

const SCALE: usize = 2;
const LABEL: usize = 190;
const ROW: usize = 40;
const GAP: usize = 6;
const TITLE: usize = 30;
const MARGIN: usize = 12;
const TEXT: Rgb = [30, 30, 30];

/// The row's label: the space, and the hue method when it is not the default.
fn label(options: &GradientOptions) -> String {
    match (options.space, options.hue) {
        (super::Space::Oklch, hue) if hue != Hue::Shorter => {
            format!("oklch {}", format!("{hue:?}").to_lowercase())
        }
        (space, _) => space.name().to_owned(),
    }
}

/// Draws `panels` into the PNG file at `path`, whole or not at all.
pub fn write_gradients(path: &Path, panels: &[Panel], width: usize) -> Result<()> {
    crate::atomic::write_file(path, |file| {
        render_gradients(panels, width, BufWriter::new(file))
    })
}

/// Draws `panels` with strips `width` pixels wide into `out` as a PNG.
pub fn render_gradients(panels: &[Panel], width: usize, out: impl Write) -> Result<()> {
    if panels.is_empty() || panels.iter().any(|p| p.rows.is_empty()) {
        return Err(Error::invalid("nothing to draw: every panel needs a row"));
    }
    if !(16..=16384).contains(&width) {
        return Err(Error::invalid(format!("width {width}: 16 to 16384 pixels")));
    }
    let height = MARGIN
        + panels
            .iter()
            .map(|p| TITLE + p.rows.len() * (ROW + GAP) + MARGIN)
            .sum::<usize>();
    let mut canvas = Canvas::new(MARGIN + LABEL + width + MARGIN, height, [255; 3])?;
    let mut y = MARGIN as i64;
    let x0 = (MARGIN + LABEL) as i64;
    for panel in panels {
        canvas.text(MARGIN as i64, y + 8, &panel.title, SCALE, TEXT);
        y += TITLE as i64;
        for options in &panel.rows {
            let colors = gradient(&panel.stops, width, options, None)?;
            canvas.text(
                MARGIN as i64,
                y + (ROW as i64 - 10) / 2,
                &label(options),
                SCALE,
                TEXT,
            );
            for (x, c) in colors.iter().enumerate() {
                for dy in 0..ROW as i64 {
                    // An 8-pixel checkerboard shows through translucent colors.
                    let check = ((x / 8) + (dy as usize / 8)).is_multiple_of(2);
                    let under = if check { 1.0 } else { 0.8 };
                    let over = |v: f64| v * c[3] + under * (1.0 - c[3]);
                    let rgb = [to_u8(over(c[0])), to_u8(over(c[1])), to_u8(over(c[2]))];
                    canvas.set(x0 + x as i64, y + dy, rgb);
                }
            }
            y += (ROW + GAP) as i64;
        }
        y += MARGIN as i64;
    }
    canvas.write_png(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::{Space, preset};

    #[test]
    fn strips_are_drawn_in_their_colors() {
        let rows = [Space::Srgb, Space::Oklab]
            .map(|space| GradientOptions {
                space,
                ..GradientOptions::default()
            })
            .to_vec();
        let panel = Panel {
            title: "black-white".into(),
            stops: preset("black-white").unwrap(),
            rows,
        };
        let mut png_bytes = Vec::new();
        render_gradients(&[panel], 256, &mut png_bytes).unwrap();
        let mut reader = png::Decoder::new(std::io::Cursor::new(&png_bytes))
            .read_info()
            .unwrap();
        let (w, h) = (reader.info().width as usize, reader.info().height as usize);
        assert_eq!(w, MARGIN + LABEL + 256 + MARGIN);
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut pixels).unwrap();
        // The first row (sRGB) goes from black to white through 50% grey at the middle.
        let y = MARGIN + TITLE + ROW / 2;
        let at = |x: usize| pixels[(y * w + MARGIN + LABEL + x) * 3];
        assert_eq!((at(0), at(255)), (0, 255));
        assert!((i32::from(at(128)) - 128).abs() <= 1, "{}", at(128));
        assert!(h > 2 * ROW);
        assert!(render_gradients(&[], 256, Vec::new()).is_err());
    }
}
