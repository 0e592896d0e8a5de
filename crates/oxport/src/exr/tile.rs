//! Tiles and levels: the `tiles` attribute, the size of each level and how
//! many tiles it has. A mipmap halves both sides per level down to one
//! pixel; a ripmap halves each side on its own, so that level (x, y) is the
//! image shrunk 2^x times across and 2^y times down.

use super::attribute::AttributeValue;
use super::attribute::Window;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// Which levels a tiled part stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LevelMode {
    /// One level: the image.
    One,
    /// Levels (0, 0), (1, 1), ... down to 1×1.
    Mipmap,
    /// Every level (x, y): the image shrunk 2^x times across, 2^y down.
    Ripmap,
}

/// How a level's size is rounded when halving an odd size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rounding {
    /// Sizes rounded down (OpenEXR's default).
    Down,
    /// Sizes rounded up.
    Up,
}

/// The `tiles` attribute of a tiled part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tiles {
    /// Tile width and height in pixels (a tile at the right or bottom edge
    /// of a level is cut to the level).
    pub width: u32,
    /// Tile height in pixels.
    pub height: u32,
    /// Which levels the part has.
    pub mode: LevelMode,
    /// How a level's size is rounded.
    pub rounding: Rounding,
}

/// One level of a part: its number across and down, its size in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level's number across (0: full width).
    pub x: usize,
    /// The level's number down (0: full height).
    pub y: usize,
    /// The level's width in pixels.
    pub width: usize,
    /// The level's height in pixels.
    pub height: usize,
}

impl std::str::FromStr for LevelMode {
    type Err = Error;

    /// `one`, `mipmap` or `ripmap`.
    fn from_str(name: &str) -> Result<Self> {
        match name {
            "one" => Ok(LevelMode::One),
            "mipmap" => Ok(LevelMode::Mipmap),
            "ripmap" => Ok(LevelMode::Ripmap),
            _ => Err(Error::invalid(format!(
                "levels {name:?}: one, mipmap or ripmap"
            ))),
        }
    }
}

impl std::str::FromStr for Rounding {
    type Err = Error;

    /// `down` or `up`.
    fn from_str(name: &str) -> Result<Self> {
        match name {
            "down" => Ok(Rounding::Down),
            "up" => Ok(Rounding::Up),
            _ => Err(Error::invalid(format!("rounding {name:?}: down or up"))),
        }
    }
}

impl Tiles {
    /// Tiles of `width × height` pixels (each 1 to 2^31 - 1) with levels
    /// `mode`, sized by `rounding`.
    pub fn new(width: u32, height: u32, mode: LevelMode, rounding: Rounding) -> Result<Self> {
        if width == 0 || height == 0 || width > i32::MAX as u32 || height > i32::MAX as u32 {
            return Err(Error::invalid(format!(
                "tiles of {width}×{height} pixels: each side 1 to 2^31 - 1"
            )));
        }
        Ok(Tiles {
            width,
            height,
            mode,
            rounding,
        })
    }

    /// Reads the `tiles` attribute's value.
    pub(crate) fn from_attribute(value: &AttributeValue) -> Result<Self> {
        let AttributeValue::TileDesc {
            x_size,
            y_size,
            mode,
        } = *value
        else {
            return Err(Error::corrupt("the tiles attribute is not a tiledesc"));
        };
        let level_mode = match mode & 0x0f {
            0 => LevelMode::One,
            1 => LevelMode::Mipmap,
            2 => LevelMode::Ripmap,
            _ => {
                return Err(Error::corrupt(
                    "the tiles attribute has an unknown level mode",
                ));
            }
        };
        let rounding = match mode >> 4 {
            0 => Rounding::Down,
            1 => Rounding::Up,
            _ => {
                return Err(Error::corrupt(
                    "the tiles attribute has an unknown rounding mode",
                ));
            }
        };
        if x_size == 0 || y_size == 0 || x_size > i32::MAX as u32 || y_size > i32::MAX as u32 {
            return Err(Error::corrupt(
                "the tiles attribute has a tile size of 0 or past 2^31",
            ));
        }
        Ok(Tiles {
            width: x_size,
            height: y_size,
            mode: level_mode,
            rounding,
        })
    }

    /// The `tiles` attribute's value.
    pub fn to_attribute(&self) -> AttributeValue {
        let mode = match self.mode {
            LevelMode::One => 0,
            LevelMode::Mipmap => 1,
            LevelMode::Ripmap => 2,
        };
        let rounding = match self.rounding {
            Rounding::Down => 0,
            Rounding::Up => 1,
        };
        AttributeValue::TileDesc {
            x_size: self.width,
            y_size: self.height,
            mode: mode | rounding << 4,
        }
    }

    /// Levels across and down for an image of `window`.
    fn level_counts(&self, window: &Window) -> (usize, usize) {
        let (w, h) = (window.width(), window.height());
        match self.mode {
            LevelMode::One => (1, 1),
            LevelMode::Mipmap => {
                let n = self.level_count(w.max(h));
                (n, n)
            }
            LevelMode::Ripmap => (self.level_count(w), self.level_count(h)),
        }
    }

    /// Levels from a side of `size` pixels down to 1.
    fn level_count(&self, size: u64) -> usize {
        let floor = 63 - size.max(1).leading_zeros() as usize;
        match self.rounding {
            Rounding::Up if !size.is_power_of_two() => floor + 2,
            _ => floor + 1,
        }
    }

    /// A side of `size` pixels at level `level`.
    fn level_size(&self, size: u64, level: usize) -> u64 {
        let shrunk = match self.rounding {
            Rounding::Down => size >> level,
            Rounding::Up => (size + (1 << level) - 1) >> level,
        };
        shrunk.max(1)
    }

    /// Every level of an image of `window`, in the order of the offset
    /// table: by y, then by x (a mipmap's levels are (0, 0), (1, 1), ...).
    pub fn levels(&self, window: &Window) -> Vec<Level> {
        let (nx, ny) = self.level_counts(window);
        let level = |x: usize, y: usize| Level {
            x,
            y,
            // At most the image's sides, which fit in memory.
            width: self.level_size(window.width(), x) as usize,
            height: self.level_size(window.height(), y) as usize,
        };
        match self.mode {
            LevelMode::One | LevelMode::Mipmap => (0..nx).map(|l| level(l, l)).collect(),
            LevelMode::Ripmap => (0..ny)
                .flat_map(|y| (0..nx).map(move |x| level(x, y)))
                .collect(),
        }
    }

    /// Tiles across and down in `level`.
    pub fn count(&self, level: &Level) -> (usize, usize) {
        (
            level.width.div_ceil(self.width as usize),
            level.height.div_ceil(self.height as usize),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(w: i32, h: i32) -> Window {
        Window {
            x_min: 0,
            y_min: 0,
            x_max: w - 1,
            y_max: h - 1,
        }
    }

    fn tiles(mode: LevelMode, rounding: Rounding) -> Tiles {
        Tiles {
            width: 4,
            height: 4,
            mode,
            rounding,
        }
    }

    #[test]
    fn mipmap_levels_halve_to_one_pixel_by_the_rounding() {
        let sizes = |t: Tiles, w, h| -> Vec<(usize, usize)> {
            t.levels(&window(w, h))
                .iter()
                .map(|l| (l.width, l.height))
                .collect()
        };
        let down = tiles(LevelMode::Mipmap, Rounding::Down);
        let up = tiles(LevelMode::Mipmap, Rounding::Up);
        assert_eq!(sizes(down, 5, 3), [(5, 3), (2, 1), (1, 1)]);
        assert_eq!(sizes(up, 5, 3), [(5, 3), (3, 2), (2, 1), (1, 1)]);
        assert_eq!(sizes(down, 8, 8).len(), 4);
        assert_eq!(sizes(up, 8, 8).len(), 4);
        assert_eq!(sizes(tiles(LevelMode::One, Rounding::Down), 5, 3), [(5, 3)]);
        assert_eq!(down.count(&down.levels(&window(9, 4))[0]), (3, 1));
    }

    #[test]
    fn ripmap_levels_go_by_y_then_x() {
        let t = tiles(LevelMode::Ripmap, Rounding::Down);
        let levels = t.levels(&window(4, 2));
        let ids: Vec<(usize, usize, usize, usize)> = levels
            .iter()
            .map(|l| (l.x, l.y, l.width, l.height))
            .collect();
        assert_eq!(
            ids,
            [
                (0, 0, 4, 2),
                (1, 0, 2, 2),
                (2, 0, 1, 2),
                (0, 1, 4, 1),
                (1, 1, 2, 1),
                (2, 1, 1, 1)
            ]
        );
    }

    #[test]
    fn the_attribute_round_trips_and_bad_modes_are_refused() {
        let t = tiles(LevelMode::Ripmap, Rounding::Up);
        assert_eq!(Tiles::from_attribute(&t.to_attribute()).unwrap(), t);
        for mode in [3u8, 0x20] {
            let bad = AttributeValue::TileDesc {
                x_size: 4,
                y_size: 4,
                mode,
            };
            assert!(Tiles::from_attribute(&bad).is_err());
        }
        let zero = AttributeValue::TileDesc {
            x_size: 0,
            y_size: 4,
            mode: 0,
        };
        assert!(Tiles::from_attribute(&zero).is_err());
    }
}
