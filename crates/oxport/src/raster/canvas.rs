//! An 8-bit RGB canvas: pixels, rectangles, discs and text, written as a
//! PNG with the sRGB chunk.

use std::io::Write;

use super::font::glyph;
use crate::{Error, Result};

/// An 8-bit sRGB color.
pub type Rgb = [u8; 3];

/// Pixels row after row, 3 bytes each; drawing outside is clipped.
#[derive(Clone, Debug)]
pub struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    /// A `width` × `height` canvas filled with `background`.
    pub fn new(width: usize, height: usize, background: Rgb) -> Result<Self> {
        let bytes = width
            .checked_mul(height)
            .and_then(|n| n.checked_mul(3))
            .filter(|&n| n <= 1 << 30 && width <= u32::MAX as usize && height <= u32::MAX as usize)
            .ok_or_else(|| Error::invalid(format!("a {width}×{height} picture is too large")))?;
        let mut pixels = Vec::with_capacity(bytes);
        for _ in 0..width * height {
            pixels.extend_from_slice(&background);
        }
        Ok(Canvas {
            width,
            height,
            pixels,
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The pixels, row after row, RGB.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// One pixel; outside the canvas, nothing.
    pub fn set(&mut self, x: i64, y: i64, color: Rgb) {
        if (0..self.width as i64).contains(&x) && (0..self.height as i64).contains(&y) {
            let at = (y as usize * self.width + x as usize) * 3;
            self.pixels[at..at + 3].copy_from_slice(&color);
        }
    }

    /// The rectangle from (x0, y0) to (x1, y1), both included.
    pub fn rect(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, color: Rgb) {
        for y in y0.max(0)..=y1.min(self.height as i64 - 1) {
            for x in x0.max(0)..=x1.min(self.width as i64 - 1) {
                self.set(x, y, color);
            }
        }
    }

    /// A filled disc of radius `r` around (cx, cy).
    pub fn disc(&mut self, cx: i64, cy: i64, r: i64, color: Rgb) {
        for y in -r..=r {
            for x in -r..=r {
                if x * x + y * y <= r * r {
                    self.set(cx + x, cy + y, color);
                }
            }
        }
    }

    /// `text` in the 3×5 font, each font pixel `scale` pixels wide, its
    /// top-left corner at (x, y); the width drawn.
    pub fn text(&mut self, x: i64, y: i64, text: &str, scale: usize, color: Rgb) -> i64 {
        let s = scale as i64;
        let mut pen = x;
        for c in text.chars() {
            for (row, bits) in glyph(c).iter().enumerate() {
                for col in 0..3 {
                    if bits & (4 >> col) != 0 {
                        let (px, py) = (pen + col * s, y + row as i64 * s);
                        self.rect(px, py, px + s - 1, py + s - 1, color);
                    }
                }
            }
            pen += 4 * s;
        }
        pen - x
    }

    /// The width of `text` drawn at `scale`.
    pub fn text_width(text: &str, scale: usize) -> i64 {
        (text.chars().count() * 4 * scale) as i64
    }

    /// Writes the canvas as an 8-bit RGB PNG marked sRGB.
    pub fn write_png(&self, out: impl Write) -> Result<()> {
        let failed = |e: png::EncodingError| Error::from(std::io::Error::other(e));
        let mut encoder = png::Encoder::new(out, self.width as u32, self.height as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
        let mut writer = encoder.write_header().map_err(failed)?;
        writer.write_image_data(&self.pixels).map_err(failed)?;
        writer.finish().map_err(failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawing_clips_and_pngs_decode_to_the_pixels() {
        let mut canvas = Canvas::new(20, 10, [255, 255, 255]).unwrap();
        canvas.rect(-5, -5, 2, 1, [1, 2, 3]);
        canvas.disc(19, 9, 3, [9, 9, 9]);
        let drawn = canvas.text(4, 2, "1A", 1, [0, 0, 0]);
        assert_eq!(drawn, Canvas::text_width("1A", 1));
        assert_eq!(canvas.pixels()[..3], [1, 2, 3]);
        let mut bytes = Vec::new();
        canvas.write_png(&mut bytes).unwrap();
        let mut reader = png::Decoder::new(std::io::Cursor::new(&bytes))
            .read_info()
            .unwrap();
        assert!(reader.info().srgb.is_some());
        let mut back = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut back).unwrap();
        assert_eq!(back, canvas.pixels());
        assert!(Canvas::new(1 << 20, 1 << 20, [0; 3]).is_err());
    }
}
