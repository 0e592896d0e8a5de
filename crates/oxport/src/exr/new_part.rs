//! Parts written from planes of pixels: the header each gets, and the
//! file they make ([`write_new_parts`]). One rule for the Python package's
//! `write` and `write_parts` (and any caller that has arrays and a few
//! attributes rather than a header).

use crate::atomic::Output;
use crate::{Error, Result};

use super::attribute::{AttributeValue, Channel, PixelType};
use super::header::Header;
use super::method::Compression;
use super::tile::Tiles;
use super::write::{DeepLevel, Pixels, WriteOptions, WritePart, write_parts};

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

impl NewPart {
    /// `pixels`, whose planes are in the order of [`NewPart::channels`], in
    /// the order of `header`'s channels (this part's [`NewPart::header`]:
    /// by name). Part `index` names the part in an error.
    fn in_header_order<'a>(
        &self,
        index: usize,
        header: &Header,
        pixels: &Pixels<'a>,
    ) -> Result<Pixels<'a>> {
        let order: Vec<usize> = header
            .channels()?
            .iter()
            .map(|c| {
                self.channels
                    .iter()
                    .position(|(name, _)| *name == c.name)
                    .expect("the header's channels are the part's")
            })
            .collect();
        let planes = |given: &[&'a [u8]]| -> Result<Vec<&'a [u8]>> {
            if given.len() != self.channels.len() {
                return Err(Error::InvalidArgument(
                    format!(
                        "part {index}: {} planes for {} channels",
                        given.len(),
                        self.channels.len()
                    )
                    .into(),
                ));
            }
            Ok(order.iter().map(|&i| given[i]).collect())
        };
        Ok(match pixels {
            Pixels::Flat(levels) => Pixels::Flat(
                levels
                    .iter()
                    .map(|level| planes(level))
                    .collect::<Result<_>>()?,
            ),
            Pixels::Deep(levels) => Pixels::Deep(
                levels
                    .iter()
                    .map(|level| {
                        Ok(DeepLevel {
                            counts: level.counts,
                            channels: planes(&level.channels)?,
                        })
                    })
                    .collect::<Result<_>>()?,
            ),
        })
    }
}

/// Writes `parts` as an OpenEXR file at `path` (single-part for one, as
/// [`write_parts`] does): each part a [`NewPart`] with its pixels, whose
/// planes are in the order of the part's `channels` (the file's is by name:
/// they are put in it here). The headers are [`NewPart::header`]'s, with the
/// [`shared_display_window`]. Gives the file's size.
pub fn write_new_parts<'a>(
    path: impl Into<Output<'a>>,
    parts: &[(NewPart, Pixels<'_>)],
    options: &WriteOptions,
) -> Result<u64> {
    let display = shared_display_window(parts.iter().map(|(part, _)| part));
    let headers = parts
        .iter()
        .map(|(part, _)| part.header(Some(&display)))
        .collect::<Result<Vec<_>>>()?;
    let writes = parts
        .iter()
        .zip(&headers)
        .enumerate()
        .map(|(index, ((part, pixels), header))| {
            Ok(WritePart {
                header,
                pixels: part.in_header_order(index, header, pixels)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    write_parts(path, &writes, options)
}

/// The display window the parts of one file share (OpenEXR requires one):
/// the first that a part's attributes give, else the smallest window from
/// (0, 0) that holds every part.
pub fn shared_display_window<'a>(
    parts: impl IntoIterator<Item = &'a NewPart> + Clone,
) -> AttributeValue {
    let given = parts.clone().into_iter().find_map(|part| {
        part.attributes
            .iter()
            .find(|(name, _)| name == "displayWindow")
            .map(|(_, value)| value.clone())
    });
    given.unwrap_or_else(|| {
        let width = parts.clone().into_iter().map(|p| p.width).max();
        let height = parts.into_iter().map(|p| p.height).max();
        let (width, height) = (width.unwrap_or(1).max(1), height.unwrap_or(1).max(1));
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

    #[test]
    fn planes_in_the_parts_order_land_under_their_names() {
        // `part()` lists R (half) before A (float); the file holds A first.
        let red: Vec<u8> = (0..8u16).flat_map(|i| (0x3c00 + i).to_le_bytes()).collect();
        let alpha: Vec<u8> = (0..8).flat_map(|i| (i as f32).to_le_bytes()).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("two.exr");
        let pixels = Pixels::Flat(vec![vec![&red[..], &alpha[..]]]);
        write_new_parts(&path, &[(part(), pixels)], &WriteOptions::default()).unwrap();
        let image = crate::exr::read(&path, &crate::exr::ReadOptions::default()).unwrap();
        let channels = image.header.channels().unwrap();
        let names: Vec<&str> = channels.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["A", "R"]);
        assert_eq!(image.planes, [alpha.clone(), red.clone()]);

        let short = Pixels::Flat(vec![vec![&red[..]]]);
        let error =
            write_new_parts(&path, &[(part(), short)], &WriteOptions::default()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid argument: part 0: 1 planes for 2 channels"
        );
    }
}
