//! The header: the magic number, the version field and the attributes, in
//! file order, every one kept.

use super::attribute::{AttributeValue, Channel, LineOrder, MAX_NAME, Window};
use super::cursor::Cursor;
use super::method::Compression;
use super::tile::Tiles;
use crate::{Error, Result};

/// The first four bytes of every OpenEXR file.
pub const MAGIC: [u8; 4] = [0x76, 0x2f, 0x31, 0x01];
/// Version field flags.
const TILED: u32 = 0x200;
const LONG_NAMES: u32 = 0x400;
const DEEP: u32 = 0x800;
const MULTIPART: u32 = 0x1000;
/// Names longer than this need the long-names flag.
const SHORT_NAME: usize = 31;

/// A single-part scan line image's header.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// Name and value of every attribute, in the order of the file.
    pub attributes: Vec<(String, AttributeValue)>,
}

/// Each channel's sampling is at least 1 and divides the window's
/// position and size, as OpenEXR requires.
pub(crate) fn check_sampling_fits(channels: &[Channel], window: &Window) -> Result<()> {
    for channel in channels {
        let fits = |s: i32, min: i32, size: u64| {
            s >= 1 && min.rem_euclid(s) == 0 && size.is_multiple_of(s as u64)
        };
        if !fits(channel.x_sampling, window.x_min, window.width())
            || !fits(channel.y_sampling, window.y_min, window.height())
        {
            return Err(Error::corrupt(
                "a channel's sampling does not divide the data window's position and size",
            ));
        }
    }
    Ok(())
}

/// Every header of a file: one for a single-part file, one per part for a
/// multi-part one, and what the version field says of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Headers {
    /// The parts' headers, in file order.
    pub parts: Vec<Header>,
    /// Chunks start with their part's number.
    pub multipart: bool,
    /// A single-part file's version field says tiled (the `tiles` attribute
    /// gives the tiles).
    pub tiled: bool,
    /// A single-part file's version field says deep.
    pub deep: bool,
    /// The offset of the first byte after the headers: the offset tables.
    pub end: usize,
}

impl Headers {
    /// Reads the magic number, the version field and every header at the
    /// start of `bytes`.
    pub fn read(bytes: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(bytes, 0);
        if c.take(4, "not an OpenEXR file (shorter than its magic number)")? != MAGIC {
            return Err(Error::Corrupt {
                what: "not an OpenEXR file (the magic number is wrong)",
                offset: Some(0),
                path: None,
            });
        }
        let version = c.u32("the version field")?;
        if version & 0xff != 2 {
            return Err(Error::Unsupported(
                format!(
                    "OpenEXR file format version {} (oxport reads version 2)",
                    version & 0xff
                )
                .into(),
            ));
        }
        if version & !(0xff | TILED | LONG_NAMES | DEEP | MULTIPART) != 0 {
            return Err(Error::Unsupported(
                format!(
                    "version flags {:#x} that OpenEXR 3.5 does not define",
                    version >> 8
                )
                .into(),
            ));
        }
        let max_name = if version & LONG_NAMES != 0 {
            MAX_NAME
        } else {
            SHORT_NAME
        };
        let multipart = version & MULTIPART != 0;
        if multipart && version & TILED != 0 {
            return Err(c.corrupt("the version field says both multi-part and single-part tiled"));
        }
        let mut parts = vec![Header::read_attributes(&mut c, max_name)?];
        if multipart {
            // Headers follow one another up to an empty one (a lone NUL).
            loop {
                match c.peek() {
                    None => return Err(c.corrupt("the headers end before the empty header")),
                    Some(0) => {
                        c.take(1, "the headers' end")?;
                        break;
                    }
                    Some(_) => parts.push(Header::read_attributes(&mut c, max_name)?),
                }
            }
        }
        Ok(Headers {
            parts,
            multipart,
            tiled: version & TILED != 0,
            deep: version & DEEP != 0,
            end: c.offset() as usize,
        })
    }
}

impl Header {
    /// The header OpenEXR 3.5 writes for an image of `width` × `height`
    /// pixels with `channels` (sorted by name here, as the format requires)
    /// and `compression`: the eight required attributes with OpenEXR's
    /// defaults and `type` = `scanlineimage`, sorted by name as OpenEXR
    /// writes them.
    pub fn new(
        width: u32,
        height: u32,
        mut channels: Vec<Channel>,
        compression: Compression,
    ) -> Result<Self> {
        if width == 0 || height == 0 || width > i32::MAX as u32 || height > i32::MAX as u32 {
            return Err(Error::invalid(format!(
                "an image of {width}×{height} pixels: both sides must be 1 to 2^31-1"
            )));
        }
        channels.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        let window = AttributeValue::Box2i([0, 0, width as i32 - 1, height as i32 - 1]);
        Ok(Header {
            attributes: vec![
                ("channels".into(), AttributeValue::Channels(channels)),
                (
                    "compression".into(),
                    AttributeValue::Compression(compression),
                ),
                ("dataWindow".into(), window.clone()),
                ("displayWindow".into(), window),
                (
                    "lineOrder".into(),
                    AttributeValue::LineOrder(LineOrder::IncreasingY),
                ),
                ("pixelAspectRatio".into(), AttributeValue::Float(1.0)),
                ("screenWindowCenter".into(), AttributeValue::V2f([0.0, 0.0])),
                ("screenWindowWidth".into(), AttributeValue::Float(1.0)),
                (
                    "type".into(),
                    AttributeValue::String(b"scanlineimage".to_vec()),
                ),
            ],
        })
    }

    /// Sets `type` and `tiles` for pixels stored in `tiles` (`None`: scan
    /// lines), deep or flat: the one rule for the layout attributes.
    pub fn set_layout(&mut self, tiles: Option<Tiles>, deep: bool) {
        let kind: &[u8] = match (tiles.is_some(), deep) {
            (false, false) => b"scanlineimage",
            (false, true) => b"deepscanline",
            (true, false) => b"tiledimage",
            (true, true) => b"deeptile",
        };
        self.set_sorted("type", AttributeValue::String(kind.to_vec()));
        match tiles {
            Some(tiles) => self.set_sorted("tiles", tiles.to_attribute()),
            None => self.attributes.retain(|(name, _)| name != "tiles"),
        }
    }

    /// The value of the attribute `name`.
    pub fn get(&self, name: &str) -> Option<&AttributeValue> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    /// Sets the attribute `name` to `value`: in its place if the header has
    /// it, else before the first attribute whose name sorts after it (where
    /// OpenEXR, which writes attributes sorted by name, puts it).
    pub fn set_sorted(&mut self, name: &str, value: AttributeValue) {
        if let Some((_, v)) = self.attributes.iter_mut().find(|(n, _)| n == name) {
            *v = value;
            return;
        }
        let at = self
            .attributes
            .iter()
            .position(|(n, _)| n.as_bytes() > name.as_bytes())
            .unwrap_or(self.attributes.len());
        self.attributes.insert(at, (name.to_owned(), value));
    }

    /// Sets the attribute `name`, in its place if it exists, at the end if not.
    pub fn set(&mut self, name: &str, value: AttributeValue) {
        match self.attributes.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value,
            None => self.attributes.push((name.to_owned(), value)),
        }
    }

    fn required(&self, name: &'static str) -> Result<&AttributeValue> {
        self.get(name).ok_or(Error::Corrupt {
            what: match name {
                "channels" => "the header has no channels attribute",
                "compression" => "the header has no compression attribute",
                "dataWindow" => "the header has no dataWindow attribute",
                _ => "the header lacks a required attribute",
            },
            offset: None,
            path: None,
        })
    }

    fn wrong_type(name: &'static str) -> Error {
        Error::Corrupt {
            what: match name {
                "channels" => "the channels attribute is not a chlist",
                "compression" => "the compression attribute is not a compression",
                "dataWindow" => "the dataWindow attribute is not a box2i",
                _ => "an attribute has the wrong type",
            },
            offset: None,
            path: None,
        }
    }

    /// The channels, sorted by name.
    pub fn channels(&self) -> Result<&[Channel]> {
        match self.required("channels")? {
            AttributeValue::Channels(channels) => Ok(channels),
            _ => Err(Self::wrong_type("channels")),
        }
    }

    /// The indices in [`Header::channels`] of the channels `names`, in the
    /// order given: what [`super::Selection::channels`] takes. A name the
    /// part does not have is an error naming it and the part's channels.
    pub fn channel_indices(&self, names: &[impl AsRef<str>]) -> Result<Vec<usize>> {
        let channels = self.channels()?;
        let found: Vec<Option<usize>> = names
            .iter()
            .map(|name| channels.iter().position(|c| c.name == name.as_ref()))
            .collect();
        if found.iter().all(Option::is_some) {
            return Ok(found.into_iter().flatten().collect());
        }
        let missing: Vec<&str> = names
            .iter()
            .zip(&found)
            .filter(|(_, index)| index.is_none())
            .map(|(name, _)| name.as_ref())
            .collect();
        let have: Vec<&str> = channels.iter().map(|c| c.name.as_str()).collect();
        Err(Error::InvalidArgument(
            format!("channels {missing:?}: the part has {have:?}").into(),
        ))
    }

    /// The compression method.
    pub fn compression(&self) -> Result<Compression> {
        match self.required("compression")? {
            AttributeValue::Compression(c) => Ok(*c),
            // A `compression` value with a code OpenEXR 3.5 does not define.
            AttributeValue::Opaque { type_name, bytes }
                if type_name == "compression" && bytes.len() == 1 =>
            {
                Err(Error::Unsupported(
                    format!(
                        "compression method {} (OpenEXR 3.5 defines 0 to 13)",
                        bytes[0]
                    )
                    .into(),
                ))
            }
            _ => Err(Self::wrong_type("compression")),
        }
    }

    /// The data window: the pixels stored.
    pub fn data_window(&self) -> Result<Window> {
        match self.required("dataWindow")? {
            AttributeValue::Box2i(b) => Ok(Window::from_box(*b)),
            _ => Err(Self::wrong_type("dataWindow")),
        }
    }

    /// The order of the chunks (increasing y when the header does not say).
    pub fn line_order(&self) -> LineOrder {
        match self.get("lineOrder") {
            Some(AttributeValue::LineOrder(order)) => *order,
            _ => LineOrder::IncreasingY,
        }
    }

    /// Reads the header of a single-part file at the start of `bytes`; the
    /// header and the offset of the first byte after it (where the offset
    /// table starts).
    pub fn read(bytes: &[u8]) -> Result<(Header, usize)> {
        let file = Headers::read(bytes)?;
        if file.multipart {
            return Err(Error::invalid(
                "a multi-part file: read its headers with Headers::read",
            ));
        }
        let end = file.end;
        let header = file.parts.into_iter().next().expect("one part");
        Ok((header, end))
    }

    /// Reads attributes up to and including the NUL that ends a header.
    fn read_attributes(c: &mut Cursor, max_name: usize) -> Result<Header> {
        let mut attributes: Vec<(String, AttributeValue)> = Vec::new();
        loop {
            match c.peek() {
                None => return Err(c.corrupt("the header ends before its terminating NUL")),
                Some(0) => {
                    c.take(1, "the header's end")?;
                    break;
                }
                Some(_) => {}
            }
            let name_at = c.offset();
            let name = c.name(max_name, "an attribute name is too long or unterminated")?;
            let type_name = c.name(
                max_name,
                "an attribute type name is too long or unterminated",
            )?;
            let size = c.i32("an attribute's size")?;
            let size =
                usize::try_from(size).map_err(|_| c.corrupt("an attribute's size is negative"))?;
            let value_at = c.offset();
            let value = c.take(size, "an attribute's value runs past the end of the file")?;
            let name = String::from_utf8(name.to_vec()).map_err(|_| Error::Corrupt {
                what: "an attribute name is not UTF-8",
                offset: Some(name_at),
                path: None,
            })?;
            if attributes.iter().any(|(n, _)| *n == name) {
                return Err(Error::Corrupt {
                    what: "an attribute appears twice in the header",
                    offset: Some(name_at),
                    path: None,
                });
            }
            let value = AttributeValue::decode(type_name, value, value_at)?;
            attributes.push((name, value));
        }
        Ok(Header { attributes })
    }

    /// Checks that the header can be written as a file oxport and OpenEXR
    /// read: channels sorted by name without duplicates, every attribute
    /// writable.
    pub(crate) fn check_writable(&self) -> Result<()> {
        let channels = self
            .channels()
            .map_err(|_| Error::invalid("the header needs a channels attribute (a chlist)"))?;
        if channels.is_empty() {
            return Err(Error::invalid("an image needs at least one channel"));
        }
        for pair in channels.windows(2) {
            if pair[0].name.as_bytes() >= pair[1].name.as_bytes() {
                return Err(Error::invalid(format!(
                    "channels must be sorted by name without duplicates: {:?} then {:?}",
                    pair[0].name, pair[1].name
                )));
            }
        }
        let window = self
            .data_window()
            .map_err(|_| Error::invalid("the header needs a dataWindow attribute (a box2i)"))?;
        if window.width() == 0 || window.height() == 0 {
            return Err(Error::invalid("the data window is empty"));
        }
        for (name, value) in &self.attributes {
            if name.is_empty() || name.len() > MAX_NAME || name.contains('\0') {
                return Err(Error::invalid(format!(
                    "attribute name {name:?}: names are 1 to 255 bytes without NUL"
                )));
            }
            let type_name = value.type_name();
            if type_name.is_empty() || type_name.len() > MAX_NAME || type_name.contains('\0') {
                return Err(Error::invalid(format!(
                    "attribute {name:?} has type name {type_name:?}: 1 to 255 bytes without NUL"
                )));
            }
            value
                .check()
                .map_err(|e| e.within(&format!("attribute {name:?}")))?;
        }
        Ok(())
    }

    /// Appends this header as the whole start of a single-part file: the
    /// magic number, the version field and the attributes.
    #[cfg(test)]
    pub(crate) fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        write_headers(&[self], out)
    }

    /// Whether a name needs the long-names flag.
    fn has_long_names(&self) -> bool {
        self.attributes.iter().any(|(name, value)| {
            name.len() > SHORT_NAME
                || value.type_name().len() > SHORT_NAME
                || matches!(value, AttributeValue::Channels(channels)
                    if channels.iter().any(|c| c.name.len() > SHORT_NAME))
        })
    }

    /// Whether the `type` attribute says deep.
    fn is_deep(&self) -> bool {
        matches!(self.get("type"), Some(AttributeValue::String(t))
            if t == b"deepscanline" || t == b"deeptile")
    }

    /// Appends the attributes and the NUL that ends them.
    fn write_attributes(&self, out: &mut Vec<u8>) -> Result<()> {
        let mut value_bytes = Vec::new();
        for (name, value) in &self.attributes {
            value_bytes.clear();
            value.encode(&mut value_bytes);
            let size = i32::try_from(value_bytes.len())
                .map_err(|_| Error::invalid(format!("attribute {name:?} is larger than 2 GiB")))?;
            out.extend_from_slice(name.as_bytes());
            out.push(0);
            out.extend_from_slice(value.type_name().as_bytes());
            out.push(0);
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&value_bytes);
        }
        out.push(0);
        Ok(())
    }
}

impl Headers {
    /// What the version field of a file of `parts` says, with OpenEXR's
    /// rules: multi-part for more than one part, non-image (deep) when a
    /// part's `type` is deep, tiled for a single flat part with `tiles`.
    /// The headers themselves are not kept (`parts` is empty, `end` 0).
    pub(crate) fn describing(parts: &[&Header]) -> Headers {
        let multipart = parts.len() > 1;
        let deep = parts.iter().any(|h| h.is_deep());
        Headers {
            parts: Vec::new(),
            multipart,
            tiled: !multipart && !deep && parts.iter().any(|h| h.get("tiles").is_some()),
            deep,
            end: 0,
        }
    }
}

/// Appends the start of a file of `parts`: the magic number, the version
/// field with the flags OpenEXR sets ([`Headers::describing`], and long
/// names when a name needs them) and every header, ended by an empty one
/// in a multi-part file.
pub(crate) fn write_headers(parts: &[&Header], out: &mut Vec<u8>) -> Result<()> {
    let file = Headers::describing(parts);
    let mut version = 2;
    if parts.iter().any(|h| h.has_long_names()) {
        version |= LONG_NAMES;
    }
    if file.multipart {
        version |= MULTIPART;
    }
    if file.deep {
        version |= DEEP;
    }
    if file.tiled {
        version |= TILED;
    }
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    for header in parts {
        header.write_attributes(out)?;
    }
    if file.multipart {
        out.push(0);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exr::attribute::PixelType;

    fn sample() -> Header {
        let mut header = Header::new(
            4,
            3,
            vec![
                Channel::new("G", PixelType::Half),
                Channel::new("A", PixelType::Float),
                Channel::new(
                    "ViewLayer.Combined.Rrrrrrrrrrrrrrrrrrrrrrrrrrrrrr",
                    PixelType::Uint,
                ),
            ],
            Compression::Zip,
        )
        .unwrap();
        header.set("owner", AttributeValue::String(b"oxport".to_vec()));
        header.set(
            "strange",
            AttributeValue::Opaque {
                type_name: "mytype".into(),
                bytes: vec![1, 2, 3],
            },
        );
        header.set(
            "chroma",
            AttributeValue::Chromaticities([0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329]),
        );
        header.set(
            "names",
            AttributeValue::StringVector(vec![b"a".to_vec(), Vec::new()]),
        );
        header.set("m", AttributeValue::M44d([1.5; 16]));
        header.set(
            "preview",
            AttributeValue::Preview {
                width: 1,
                height: 2,
                rgba: vec![9; 8],
            },
        );
        header
    }

    #[test]
    fn headers_round_trip_with_every_attribute_kept() {
        let header = sample();
        let mut bytes = Vec::new();
        header.write(&mut bytes).unwrap();
        let (back, end) = Header::read(&bytes).unwrap();
        assert_eq!(end, bytes.len());
        assert_eq!(back, header);
        assert_eq!(back.channels().unwrap()[0].name, "A");
        assert_eq!(back.data_window().unwrap().width(), 4);
        // A channel name longer than 31 bytes sets the long-names flag.
        assert_eq!(
            u32::from_le_bytes(bytes[4..8].try_into().unwrap()),
            2 | LONG_NAMES
        );
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let mut bytes = Vec::new();
        sample().write(&mut bytes).unwrap();
        for len in 0..bytes.len() {
            assert!(Header::read(&bytes[..len]).is_err(), "{len}");
        }
    }

    #[test]
    fn multipart_headers_end_with_an_empty_header_and_flags_are_read() {
        let mut single = Vec::new();
        sample().write(&mut single).unwrap();
        let mut multi = single.clone();
        multi[5] |= (MULTIPART >> 8) as u8;
        multi.extend_from_slice(&single[8..]);
        multi.push(0);
        let file = Headers::read(&multi).unwrap();
        assert!(file.multipart && !file.tiled && !file.deep);
        assert_eq!(file.parts, [sample(), sample()]);
        assert_eq!(file.end, multi.len());
        assert!(matches!(
            Header::read(&multi),
            Err(Error::InvalidArgument(_))
        ));
        for len in 0..multi.len() {
            assert!(Headers::read(&multi[..len]).is_err(), "{len}");
        }
        for (flag, tiled, deep) in [(TILED, true, false), (DEEP, false, true)] {
            let mut b = single.clone();
            b[5] |= (flag >> 8) as u8;
            let file = Headers::read(&b).unwrap();
            assert_eq!((file.tiled, file.deep, file.parts.len()), (tiled, deep, 1));
        }
        // A flag OpenEXR does not define.
        let mut b = single.clone();
        b[6] |= 0x20;
        assert!(matches!(Headers::read(&b), Err(Error::Unsupported(_))));
    }

    #[test]
    fn a_compression_attribute_of_another_type_is_an_error_not_a_panic() {
        // Found by the exr_read fuzz target: an attribute named
        // "compression" whose type is unknown and value empty.
        let mut header = sample();
        header.set(
            "compression",
            AttributeValue::Opaque {
                type_name: "odd".into(),
                bytes: Vec::new(),
            },
        );
        assert!(matches!(header.compression(), Err(Error::Corrupt { .. })));
        header.set(
            "compression",
            AttributeValue::Opaque {
                type_name: "compression".into(),
                bytes: vec![99],
            },
        );
        assert!(matches!(header.compression(), Err(Error::Unsupported(_))));
    }

    #[test]
    fn unsorted_channels_cannot_be_written() {
        let mut header = sample();
        let AttributeValue::Channels(channels) = &mut header.attributes[0].1 else {
            panic!()
        };
        channels.swap(0, 1);
        assert!(header.check_writable().is_err());
    }

    #[test]
    fn channels_are_selected_by_name_in_the_order_asked() {
        let header = sample();
        assert_eq!(header.channel_indices(&["G", "A"]).unwrap(), [1, 0]);
        let error = header.channel_indices(&["G", "Z", "Y"]).unwrap_err();
        assert!(
            error
                .to_string()
                .contains(r#"channels ["Z", "Y"]: the part has ["A", "G", "#),
            "{error}"
        );
    }
}
