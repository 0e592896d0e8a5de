//! Header attribute values: every type OpenEXR 3.5 defines, read and written
//! byte for byte; a type oxport does not know is kept as opaque bytes and
//! written back unchanged.

use super::cursor::Cursor;
use super::method::Compression;
use crate::{Error, Result};

/// A pixel type: how a channel's samples are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PixelType {
    /// 32-bit unsigned integer.
    Uint,
    /// IEEE 754 binary16.
    Half,
    /// IEEE 754 binary32.
    Float,
}

impl PixelType {
    /// Bytes per sample.
    pub fn size(self) -> usize {
        match self {
            PixelType::Half => 2,
            PixelType::Uint | PixelType::Float => 4,
        }
    }

    fn from_code(code: i32) -> Option<Self> {
        Some(match code {
            0 => PixelType::Uint,
            1 => PixelType::Half,
            2 => PixelType::Float,
            _ => return None,
        })
    }

    fn code(self) -> i32 {
        match self {
            PixelType::Uint => 0,
            PixelType::Half => 1,
            PixelType::Float => 2,
        }
    }
}

/// One entry of the `channels` attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Channel {
    /// The name, any bytes but NUL (`R`, `ViewLayer.Combined.R`).
    pub name: String,
    /// The sample type.
    pub pixel_type: PixelType,
    /// A hint that the values are perceptually linear.
    pub linear: bool,
    /// Horizontal subsampling: a sample every `x_sampling` pixels (1: every pixel).
    pub x_sampling: i32,
    /// Vertical subsampling: a sample every `y_sampling` rows (1: every row).
    pub y_sampling: i32,
}

impl Channel {
    /// A channel of `pixel_type` sampled at every pixel.
    pub fn new(name: impl Into<String>, pixel_type: PixelType) -> Self {
        Channel {
            name: name.into(),
            pixel_type,
            linear: false,
            x_sampling: 1,
            y_sampling: 1,
        }
    }
}

/// The order scan line chunks are stored in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineOrder {
    /// Chunks from the top row down (OpenEXR's default).
    IncreasingY,
    /// Chunks from the bottom row up.
    DecreasingY,
    /// Tiles in any order (tiled parts only).
    RandomY,
}

impl LineOrder {
    fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            0 => LineOrder::IncreasingY,
            1 => LineOrder::DecreasingY,
            2 => LineOrder::RandomY,
            _ => return None,
        })
    }

    fn code(self) -> u8 {
        match self {
            LineOrder::IncreasingY => 0,
            LineOrder::DecreasingY => 1,
            LineOrder::RandomY => 2,
        }
    }
}

/// An attribute's value, by type (the type name in the file is
/// [`AttributeValue::type_name`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AttributeValue {
    /// `box2i`: x min, y min, x max, y max (inclusive).
    Box2i([i32; 4]),
    /// `box2f`: x min, y min, x max, y max.
    Box2f([f32; 4]),
    /// `chlist`: channels in the order of the file (sorted by name).
    Channels(Vec<Channel>),
    /// `chromaticities`: red, green, blue and white x, y.
    Chromaticities([f32; 8]),
    /// `compression`: the method; a code OpenEXR does not define is kept in
    /// [`AttributeValue::Opaque`].
    Compression(Compression),
    /// `double`.
    Double(f64),
    /// `envmap`: 0 latitude-longitude, 1 cube.
    EnvMap(u8),
    /// `float`.
    Float(f32),
    /// `floatvector`.
    FloatVector(Vec<f32>),
    /// `int`.
    Int(i32),
    /// `keycode`: film manufacturer code, type, prefix, count, perf offset,
    /// perfs per frame, perfs per count.
    KeyCode([i32; 7]),
    /// `lineOrder`.
    LineOrder(LineOrder),
    /// `m33f`: a 3×3 matrix, row after row.
    M33f([f32; 9]),
    /// `m33d`: a 3×3 matrix, row after row.
    M33d([f64; 9]),
    /// `m44f`: a 4×4 matrix, row after row.
    M44f([f32; 16]),
    /// `m44d`: a 4×4 matrix, row after row.
    M44d([f64; 16]),
    /// `preview`: width, height and width × height RGBA bytes.
    Preview {
        /// The preview's width in pixels.
        width: u32,
        /// The preview's height in pixels.
        height: u32,
        /// Width × height RGBA pixels, a byte a channel.
        rgba: Vec<u8>,
    },
    /// `rational`: numerator, denominator.
    Rational(i32, u32),
    /// `string`: bytes, usually UTF-8 (not NUL-terminated in the file).
    String(Vec<u8>),
    /// `stringvector`: strings of bytes.
    StringVector(Vec<Vec<u8>>),
    /// `tiledesc`: tile width, height and the level mode byte.
    TileDesc {
        /// Tile width in pixels.
        x_size: u32,
        /// Tile height in pixels.
        y_size: u32,
        /// The level mode (low 4 bits) and rounding mode (next 4).
        mode: u8,
    },
    /// `timecode`: time and flags, user data.
    TimeCode(u32, u32),
    /// `v2i`.
    V2i([i32; 2]),
    /// `v2f`.
    V2f([f32; 2]),
    /// `v2d`.
    V2d([f64; 2]),
    /// `v3i`.
    V3i([i32; 3]),
    /// `v3f`.
    V3f([f32; 3]),
    /// `v3d`.
    V3d([f64; 3]),
    /// Any other type: its name and bytes, written back as they came.
    Opaque {
        /// The type's name in the file.
        type_name: String,
        /// The value's bytes.
        bytes: Vec<u8>,
    },
}

/// Decodes `N` little-endian values of `S` bytes each with `from`.
fn values<const N: usize, const S: usize, T: Copy + Default>(
    c: &mut Cursor,
    from: fn([u8; S]) -> T,
    what: &'static str,
) -> Result<[T; N]> {
    let mut out = [T::default(); N];
    for v in &mut out {
        *v = from(c.array::<S>(what)?);
    }
    Ok(out)
}

impl AttributeValue {
    /// The type name stored in the file.
    pub fn type_name(&self) -> &str {
        match self {
            AttributeValue::Box2i(_) => "box2i",
            AttributeValue::Box2f(_) => "box2f",
            AttributeValue::Channels(_) => "chlist",
            AttributeValue::Chromaticities(_) => "chromaticities",
            AttributeValue::Compression(_) => "compression",
            AttributeValue::Double(_) => "double",
            AttributeValue::EnvMap(_) => "envmap",
            AttributeValue::Float(_) => "float",
            AttributeValue::FloatVector(_) => "floatvector",
            AttributeValue::Int(_) => "int",
            AttributeValue::KeyCode(_) => "keycode",
            AttributeValue::LineOrder(_) => "lineOrder",
            AttributeValue::M33f(_) => "m33f",
            AttributeValue::M33d(_) => "m33d",
            AttributeValue::M44f(_) => "m44f",
            AttributeValue::M44d(_) => "m44d",
            AttributeValue::Preview { .. } => "preview",
            AttributeValue::Rational(..) => "rational",
            AttributeValue::String(_) => "string",
            AttributeValue::StringVector(_) => "stringvector",
            AttributeValue::TileDesc { .. } => "tiledesc",
            AttributeValue::TimeCode(..) => "timecode",
            AttributeValue::V2i(_) => "v2i",
            AttributeValue::V2f(_) => "v2f",
            AttributeValue::V2d(_) => "v2d",
            AttributeValue::V3i(_) => "v3i",
            AttributeValue::V3f(_) => "v3f",
            AttributeValue::V3d(_) => "v3d",
            AttributeValue::Opaque { type_name, .. } => type_name,
        }
    }

    /// Decodes a value of type `type_name` from exactly `bytes` (which start
    /// at `offset` in the file). A known type whose size is wrong is an
    /// error; an unknown type is kept opaque.
    pub(crate) fn decode(type_name: &[u8], bytes: &[u8], offset: u64) -> Result<Self> {
        let mut c = Cursor::new(bytes, offset);
        let c = &mut c;
        let i32s = i32::from_le_bytes;
        let f32s = f32::from_le_bytes;
        let f64s = f64::from_le_bytes;
        let fixed = |size: usize| -> Result<()> {
            if bytes.len() == size {
                Ok(())
            } else {
                Err(Error::Corrupt {
                    what: "an attribute's size does not match its type",
                    offset: Some(offset),
                    path: None,
                })
            }
        };
        let value = match type_name {
            b"box2i" => fixed(16).and_then(|()| values(c, i32s, "box2i").map(Self::Box2i))?,
            b"box2f" => fixed(16).and_then(|()| values(c, f32s, "box2f").map(Self::Box2f))?,
            b"chlist" => Self::Channels(decode_channels(c)?),
            b"chromaticities" => fixed(32)
                .and_then(|()| values(c, f32s, "chromaticities").map(Self::Chromaticities))?,
            b"compression" => {
                fixed(1)?;
                let code = c.u8("compression")?;
                match Compression::from_code(code) {
                    Some(method) => Self::Compression(method),
                    None => Self::Opaque {
                        type_name: "compression".into(),
                        bytes: vec![code],
                    },
                }
            }
            b"double" => fixed(8)
                .and_then(|()| values::<1, 8, _>(c, f64s, "double"))
                .map(|[v]| Self::Double(v))?,
            b"envmap" => fixed(1).and_then(|()| c.u8("envmap")).map(Self::EnvMap)?,
            b"float" => fixed(4)
                .and_then(|()| values::<1, 4, _>(c, f32s, "float"))
                .map(|[v]| Self::Float(v))?,
            b"floatvector" => {
                if !bytes.len().is_multiple_of(4) {
                    return Err(Error::Corrupt {
                        what: "a float vector's size is not a multiple of 4",
                        offset: Some(offset),
                        path: None,
                    });
                }
                Self::FloatVector(
                    bytes
                        .chunks_exact(4)
                        .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
                        .collect(),
                )
            }
            b"int" => fixed(4).and_then(|()| c.i32("int")).map(Self::Int)?,
            b"keycode" => fixed(28).and_then(|()| values(c, i32s, "keycode").map(Self::KeyCode))?,
            b"lineOrder" => {
                fixed(1)?;
                let code = c.u8("lineOrder")?;
                match LineOrder::from_code(code) {
                    Some(order) => Self::LineOrder(order),
                    None => {
                        return Err(Error::Corrupt {
                            what: "the line order is not 0, 1 or 2",
                            offset: Some(offset),
                            path: None,
                        });
                    }
                }
            }
            b"m33f" => fixed(36).and_then(|()| values(c, f32s, "m33f").map(Self::M33f))?,
            b"m33d" => fixed(72).and_then(|()| values(c, f64s, "m33d").map(Self::M33d))?,
            b"m44f" => fixed(64).and_then(|()| values(c, f32s, "m44f").map(Self::M44f))?,
            b"m44d" => fixed(128).and_then(|()| values(c, f64s, "m44d").map(Self::M44d))?,
            b"preview" => {
                let width = c.u32("the preview's width")?;
                let height = c.u32("the preview's height")?;
                let size = u64::from(width) * u64::from(height) * 4;
                fixed(8usize.saturating_add(usize::try_from(size).unwrap_or(usize::MAX)))?;
                let rgba = c.take(c.remaining(), "the preview's pixels")?.to_vec();
                Self::Preview {
                    width,
                    height,
                    rgba,
                }
            }
            b"rational" => {
                fixed(8)?;
                Self::Rational(c.i32("rational")?, c.u32("rational")?)
            }
            b"string" => Self::String(bytes.to_vec()),
            b"stringvector" => {
                let mut strings = Vec::new();
                while c.remaining() > 0 {
                    let len = c.i32("a string's length")?;
                    let len = usize::try_from(len)
                        .map_err(|_| c.corrupt("a string's length is negative"))?;
                    strings.push(c.take(len, "a string of a string vector")?.to_vec());
                }
                Self::StringVector(strings)
            }
            b"tiledesc" => {
                fixed(9)?;
                Self::TileDesc {
                    x_size: c.u32("tiledesc")?,
                    y_size: c.u32("tiledesc")?,
                    mode: c.u8("tiledesc")?,
                }
            }
            b"timecode" => {
                fixed(8)?;
                Self::TimeCode(c.u32("timecode")?, c.u32("timecode")?)
            }
            b"v2i" => fixed(8).and_then(|()| values(c, i32s, "v2i").map(Self::V2i))?,
            b"v2f" => fixed(8).and_then(|()| values(c, f32s, "v2f").map(Self::V2f))?,
            b"v2d" => fixed(16).and_then(|()| values(c, f64s, "v2d").map(Self::V2d))?,
            b"v3i" => fixed(12).and_then(|()| values(c, i32s, "v3i").map(Self::V3i))?,
            b"v3f" => fixed(12).and_then(|()| values(c, f32s, "v3f").map(Self::V3f))?,
            b"v3d" => fixed(24).and_then(|()| values(c, f64s, "v3d").map(Self::V3d))?,
            other => Self::Opaque {
                type_name: String::from_utf8_lossy(other).into_owned(),
                bytes: bytes.to_vec(),
            },
        };
        Ok(value)
    }

    /// Appends the value's bytes (without name, type or size) to `out`.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        fn all<const S: usize, T: Copy>(out: &mut Vec<u8>, values: &[T], to: fn(T) -> [u8; S]) {
            for &v in values {
                out.extend_from_slice(&to(v));
            }
        }
        let (i32s, f32s, f64s) = (i32::to_le_bytes, f32::to_le_bytes, f64::to_le_bytes);
        match self {
            AttributeValue::Box2i(v) => all(out, v, i32s),
            AttributeValue::Box2f(v) => all(out, v, f32s),
            AttributeValue::Channels(channels) => encode_channels(channels, out),
            AttributeValue::Chromaticities(v) => all(out, v, f32s),
            AttributeValue::Compression(c) => out.push(c.code()),
            AttributeValue::Double(v) => all(out, &[*v], f64s),
            AttributeValue::EnvMap(v) => out.push(*v),
            AttributeValue::Float(v) => all(out, &[*v], f32s),
            AttributeValue::FloatVector(v) => all(out, v, f32s),
            AttributeValue::Int(v) => all(out, &[*v], i32s),
            AttributeValue::KeyCode(v) => all(out, v, i32s),
            AttributeValue::LineOrder(order) => out.push(order.code()),
            AttributeValue::M33f(v) => all(out, v, f32s),
            AttributeValue::M33d(v) => all(out, v, f64s),
            AttributeValue::M44f(v) => all(out, v, f32s),
            AttributeValue::M44d(v) => all(out, v, f64s),
            AttributeValue::Preview {
                width,
                height,
                rgba,
            } => {
                out.extend_from_slice(&width.to_le_bytes());
                out.extend_from_slice(&height.to_le_bytes());
                out.extend_from_slice(rgba);
            }
            AttributeValue::Rational(n, d) => {
                out.extend_from_slice(&n.to_le_bytes());
                out.extend_from_slice(&d.to_le_bytes());
            }
            AttributeValue::String(s) => out.extend_from_slice(s),
            AttributeValue::StringVector(strings) => {
                for s in strings {
                    out.extend_from_slice(&(s.len() as i32).to_le_bytes());
                    out.extend_from_slice(s);
                }
            }
            AttributeValue::TileDesc {
                x_size,
                y_size,
                mode,
            } => {
                out.extend_from_slice(&x_size.to_le_bytes());
                out.extend_from_slice(&y_size.to_le_bytes());
                out.push(*mode);
            }
            AttributeValue::TimeCode(a, b) => {
                out.extend_from_slice(&a.to_le_bytes());
                out.extend_from_slice(&b.to_le_bytes());
            }
            AttributeValue::V2i(v) => all(out, v, i32s),
            AttributeValue::V2f(v) => all(out, v, f32s),
            AttributeValue::V2d(v) => all(out, v, f64s),
            AttributeValue::V3i(v) => all(out, v, i32s),
            AttributeValue::V3f(v) => all(out, v, f32s),
            AttributeValue::V3d(v) => all(out, v, f64s),
            AttributeValue::Opaque { bytes, .. } => out.extend_from_slice(bytes),
        }
    }

    /// Checks what the file format cannot hold: sizes that do not fit its
    /// 32-bit fields, a preview whose pixels do not match its size,
    /// channel names that are empty or hold NUL.
    pub(crate) fn check(&self) -> Result<()> {
        match self {
            AttributeValue::Channels(channels) => {
                for channel in channels {
                    if channel.name.is_empty() || channel.name.contains('\0') {
                        return Err(Error::invalid(format!(
                            "channel name {:?}: names are 1 or more bytes without NUL",
                            channel.name
                        )));
                    }
                }
            }
            AttributeValue::Preview {
                width,
                height,
                rgba,
            } if (u64::from(*width) * u64::from(*height) * 4) != rgba.len() as u64 => {
                return Err(Error::invalid(format!(
                    "a preview of {width}×{height} needs {} RGBA bytes, not {}",
                    u64::from(*width) * u64::from(*height) * 4,
                    rgba.len()
                )));
            }
            AttributeValue::StringVector(strings)
                if strings.iter().any(|s| s.len() > i32::MAX as usize) =>
            {
                return Err(Error::invalid(
                    "a string of a string vector is longer than 2 GiB",
                ));
            }
            _ => {}
        }
        Ok(())
    }
}

/// The longest channel name OpenEXR accepts (the long-names limit).
pub(crate) const MAX_NAME: usize = 255;

fn decode_channels(c: &mut Cursor) -> Result<Vec<Channel>> {
    let mut channels: Vec<Channel> = Vec::new();
    loop {
        match c.peek() {
            None => return Err(c.corrupt("the channel list has no terminating NUL")),
            Some(0) => {
                c.take(1, "the channel list's end")?;
                if c.remaining() != 0 {
                    return Err(c.corrupt("bytes after the channel list's end"));
                }
                return Ok(channels);
            }
            Some(_) => {}
        }
        let start = c.offset();
        let name = c.name(
            MAX_NAME,
            "a channel name longer than 255 bytes or unterminated",
        )?;
        let name = String::from_utf8(name.to_vec()).map_err(|_| Error::Corrupt {
            what: "a channel name is not UTF-8",
            offset: Some(start),
            path: None,
        })?;
        let code = c.i32("a channel's pixel type")?;
        let pixel_type = PixelType::from_code(code)
            .ok_or_else(|| c.corrupt("a channel's pixel type is not 0, 1 or 2"))?;
        let linear = c.u8("a channel's linear flag")? != 0;
        c.take(3, "a channel's reserved bytes")?;
        let x_sampling = c.i32("a channel's x sampling")?;
        let y_sampling = c.i32("a channel's y sampling")?;
        channels.push(Channel {
            name,
            pixel_type,
            linear,
            x_sampling,
            y_sampling,
        });
    }
}

fn encode_channels(channels: &[Channel], out: &mut Vec<u8>) {
    for channel in channels {
        out.extend_from_slice(channel.name.as_bytes());
        out.push(0);
        out.extend_from_slice(&channel.pixel_type.code().to_le_bytes());
        out.extend_from_slice(&[u8::from(channel.linear), 0, 0, 0]);
        out.extend_from_slice(&channel.x_sampling.to_le_bytes());
        out.extend_from_slice(&channel.y_sampling.to_le_bytes());
    }
    out.push(0);
}

impl std::fmt::Display for PixelType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PixelType::Uint => "uint",
            PixelType::Half => "half",
            PixelType::Float => "float",
        })
    }
}

impl std::fmt::Display for LineOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LineOrder::IncreasingY => "increasing y",
            LineOrder::DecreasingY => "decreasing y",
            LineOrder::RandomY => "random y",
        })
    }
}

/// One line of text for people (`oxport exr info`): numbers as Rust prints
/// them (shortest round trip), strings quoted, long byte runs summarised.
impl std::fmt::Display for AttributeValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn list<T: std::fmt::Debug>(
            f: &mut std::fmt::Formatter<'_>,
            values: &[T],
        ) -> std::fmt::Result {
            f.write_str("(")?;
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{v:?}")?;
            }
            f.write_str(")")
        }
        let text = |b: &[u8]| format!("{:?}", String::from_utf8_lossy(b));
        match self {
            AttributeValue::Box2i(b) => write!(f, "({}, {}) to ({}, {})", b[0], b[1], b[2], b[3]),
            AttributeValue::Box2f(b) => {
                write!(f, "({:?}, {:?}) to ({:?}, {:?})", b[0], b[1], b[2], b[3])
            }
            AttributeValue::Channels(channels) => {
                for (i, c) in channels.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{} ({}", c.name, c.pixel_type)?;
                    if c.linear {
                        f.write_str(", linear")?;
                    }
                    if (c.x_sampling, c.y_sampling) != (1, 1) {
                        write!(f, ", sampling {}×{}", c.x_sampling, c.y_sampling)?;
                    }
                    f.write_str(")")?;
                }
                Ok(())
            }
            AttributeValue::Chromaticities(v) => list(f, v),
            AttributeValue::Compression(c) => write!(f, "{c}"),
            AttributeValue::Double(v) => write!(f, "{v:?}"),
            AttributeValue::EnvMap(v) => f.write_str(match v {
                0 => "latitude-longitude",
                1 => "cube",
                _ => "unknown",
            }),
            AttributeValue::Float(v) => write!(f, "{v:?}"),
            AttributeValue::FloatVector(v) => list(f, v),
            AttributeValue::Int(v) => write!(f, "{v}"),
            AttributeValue::KeyCode(v) => list(f, v),
            AttributeValue::LineOrder(order) => write!(f, "{order}"),
            AttributeValue::M33f(v) => list(f, v),
            AttributeValue::M33d(v) => list(f, v),
            AttributeValue::M44f(v) => list(f, v),
            AttributeValue::M44d(v) => list(f, v),
            AttributeValue::Preview { width, height, .. } => write!(f, "{width}×{height} RGBA"),
            AttributeValue::Rational(n, d) => write!(f, "{n}/{d}"),
            AttributeValue::String(s) => f.write_str(&text(s)),
            AttributeValue::StringVector(strings) => {
                let items: Vec<String> = strings.iter().map(|s| text(s)).collect();
                write!(f, "[{}]", items.join(", "))
            }
            AttributeValue::TileDesc {
                x_size,
                y_size,
                mode,
            } => write!(f, "{x_size}×{y_size} tiles, mode {mode}"),
            AttributeValue::TimeCode(a, b) => write!(f, "{a:#010x} {b:#010x}"),
            AttributeValue::V2i(v) => list(f, v),
            AttributeValue::V2f(v) => list(f, v),
            AttributeValue::V2d(v) => list(f, v),
            AttributeValue::V3i(v) => list(f, v),
            AttributeValue::V3f(v) => list(f, v),
            AttributeValue::V3d(v) => list(f, v),
            AttributeValue::Opaque { bytes, .. } => write!(f, "{} bytes", bytes.len()),
        }
    }
}

/// The pixel rectangle: x and y, min and max, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// The leftmost column.
    pub x_min: i32,
    /// The top row.
    pub y_min: i32,
    /// The rightmost column.
    pub x_max: i32,
    /// The bottom row.
    pub y_max: i32,
}

impl Window {
    /// Columns (0 when max < min).
    pub fn width(&self) -> u64 {
        (i64::from(self.x_max) - i64::from(self.x_min) + 1).max(0) as u64
    }

    /// Rows (0 when max < min).
    pub fn height(&self) -> u64 {
        (i64::from(self.y_max) - i64::from(self.y_min) + 1).max(0) as u64
    }

    pub(crate) fn from_box(b: [i32; 4]) -> Self {
        Window {
            x_min: b[0],
            y_min: b[1],
            x_max: b[2],
            y_max: b[3],
        }
    }
}
