//! The header of a part written from planes of pixels: one rule for the
//! Python package's `write` and `write_parts` (and any caller that has
//! arrays and a few attributes rather than a header).

use crate::Result;

use super::attribute::{AttributeValue, Channel, PixelType};
use super::header::Header;
use super::method::Compression;
use super::tile::Tiles;

/// A part to write: its size, its channels (names and types), how it is
/// stored, and the attributes its caller gives. [`NewPart::header`] makes
/// the header written.
#[derive(Clone, Debug)]
pub struct NewPart {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The channels' names and sample types, in any order.
    pub channels: Vec<(String, PixelType)>,
    /// `None`: ZIP, or ZIPS for a deep part.
    pub compression: Option<Compression>,
    /// `None`: scan lines.
    pub tiles: Option<Tiles>,
    /// Whether the part holds deep samples (any number per pixel).
    pub deep: bool,
    /// Attributes given by the caller (a header read from another file,
    /// `owner`, `name`, ...).
    pub attributes: Vec<(String, AttributeValue)>,
}

impl NewPart {
    /// The header written: [`Header::new`]'s (OpenEXR's defaults, every
    /// attribute in name order), the display window `display` (`None`: the
    /// data window), the given attributes over them, and then what the part
    /// itself decides:
    ///
    /// - `channels`: the part's channels, sorted by name, each with the
    ///   linear flag and the sampling of the given `channels` attribute's
    ///   channel of that name (a deep part's channels sample every pixel);
    /// - `compression`: [`NewPart::compression`], never a given one;
    /// - `type` and `tiles`: from [`NewPart::tiles`] and [`NewPart::deep`]
    ///   ([`Header::set_layout`]); a given `chunkCount` is dropped (the
    ///   writer sets it).
    pub fn header(&self, display: Option<&AttributeValue>) -> Result<Header> {
        let given = |name: &str| {
            self.attributes
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v)
        };
        let before: &[Channel] = match given("channels") {
            Some(AttributeValue::Channels(channels)) => channels,
            _ => &[],
        };
        let channels = self
            .channels
            .iter()
            .map(|(name, pixel_type)| {
                let mut channel = Channel::new(name.clone(), *pixel_type);
                if let Some(old) = before.iter().find(|c| &c.name == name) {
                    channel.linear = old.linear;
                    if !self.deep {
                        (channel.x_sampling, channel.y_sampling) = (old.x_sampling, old.y_sampling);
                    }
                }
                channel
            })
            .collect();
        let compression = self.compression.unwrap_or(if self.deep {
            Compression::Zips
        } else {
            Compression::Zip
        });
        let mut header = Header::new(self.width, self.height, channels, compression)?;
        if let Some(display) = display {
            header.set_sorted("displayWindow", display.clone());
        }
        let decided = ["channels", "compression", "type", "tiles", "chunkCount"];
        for (name, value) in &self.attributes {
            if !decided.contains(&name.as_str()) {
                header.set_sorted(name, value.clone());
            }
        }
        header.set_layout(self.tiles, self.deep);
        Ok(header)
    }
}

/// The display window the parts of one file share (OpenEXR requires one):
/// the first that a part's attributes give, else the smallest window from
/// (0, 0) that holds every part.
pub fn shared_display_window(parts: &[NewPart]) -> AttributeValue {
    let given = parts.iter().find_map(|part| {
        part.attributes
            .iter()
            .find(|(name, _)| name == "displayWindow")
            .map(|(_, value)| value.clone())
    });
    given.unwrap_or_else(|| {
        let width = parts.iter().map(|p| p.width).max().unwrap_or(1).max(1);
        let height = parts.iter().map(|p| p.height).max().unwrap_or(1).max(1);
        AttributeValue::Box2i([0, 0, width as i32 - 1, height as i32 - 1])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exr::tile::{LevelMode, Rounding};

    fn part() -> NewPart {
        NewPart {
            width: 4,
            height: 2,
            channels: vec![
                ("R".into(), PixelType::Half),
                ("A".into(), PixelType::Float),
            ],
            compression: None,
            tiles: None,
            deep: false,
            attributes: Vec::new(),
        }
    }

    fn names(header: &Header) -> Vec<&str> {
        header.attributes.iter().map(|(n, _)| n.as_str()).collect()
    }

    #[test]
    fn defaults_are_openexrs_in_name_order() {
        let header = part().header(None).unwrap();
        let expected = Header::new(
            4,
            2,
            vec![
                Channel::new("A", PixelType::Float),
                Channel::new("R", PixelType::Half),
            ],
            Compression::Zip,
        )
        .unwrap();
        assert_eq!(header, expected);
    }

    #[test]
    fn given_attributes_keep_linear_and_sampling_but_not_the_layout() {
        let mut old = Channel::new("R", PixelType::Float);
        old.linear = true;
        (old.x_sampling, old.y_sampling) = (2, 2);
        let mut part = part();
        part.attributes = vec![
            ("owner".into(), AttributeValue::String(b"me".to_vec())),
            ("channels".into(), AttributeValue::Channels(vec![old])),
            (
                "compression".into(),
                AttributeValue::Compression(Compression::Piz),
            ),
            ("type".into(), AttributeValue::String(b"deeptile".to_vec())),
            ("chunkCount".into(), AttributeValue::Int(9)),
        ];
        part.tiles = Some(Tiles {
            width: 2,
            height: 2,
            mode: LevelMode::Mipmap,
            rounding: Rounding::Down,
        });
        let header = part.header(None).unwrap();
        let channels = header.channels().unwrap();
        assert_eq!((channels[1].linear, channels[1].x_sampling), (true, 2));
        assert_eq!((channels[0].linear, channels[0].x_sampling), (false, 1));
        assert_eq!(header.compression().unwrap(), Compression::Zip);
        assert_eq!(
            header.get("type"),
            Some(&AttributeValue::String(b"tiledimage".to_vec()))
        );
        assert!(header.get("chunkCount").is_none());
        let mut sorted = names(&header);
        sorted.sort_unstable();
        assert_eq!(names(&header), sorted);
        part.deep = true;
        let deep = part.header(None).unwrap();
        assert_eq!(deep.channels().unwrap()[1].x_sampling, 1);
        assert_eq!(deep.compression().unwrap(), Compression::Zips);
        assert_eq!(
            deep.get("type"),
            Some(&AttributeValue::String(b"deeptile".to_vec()))
        );
    }

    #[test]
    fn the_display_window_is_shared_or_the_largest() {
        let mut small = part();
        (small.width, small.height) = (2, 7);
        assert_eq!(
            shared_display_window(&[part(), small.clone()]),
            AttributeValue::Box2i([0, 0, 3, 6])
        );
        let window = AttributeValue::Box2i([-1, -1, 9, 9]);
        small.attributes = vec![("displayWindow".into(), window.clone())];
        assert_eq!(shared_display_window(&[part(), small]), window);
    }
}
