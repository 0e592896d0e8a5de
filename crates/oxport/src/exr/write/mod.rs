//! Writing a file of one or more parts: the headers, each part's table of
//! offsets (filled in at the end), and every chunk of every part and level
//! compressed in parallel through the ordered pipeline, written in order
//! as they finish. The file appears whole or not at all.

mod deep;
mod flat;

use std::io::{BufWriter, Seek, SeekFrom, Write};

use super::attribute::{AttributeValue, LineOrder};
use super::chunk::samples;
use super::deep::sample_offsets;
use super::header::{Header, Headers, write_headers};
use super::method::Compression;
use super::part::{ChunkRef, Part, Storage};
use super::reduce::{Extrapolation, make_levels};
use crate::atomic::{self, Output};
use crate::codec::Levels;
use crate::pipeline::Pipeline;
use crate::{Error, Result};

/// How to write.
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    /// The compression level: deflate 0 to 12 for ZIP, ZIPS and PXR24
    /// (OpenEXR's default 4), zstd's levels for ZSTD (OpenEXR's default 5).
    /// `None`: OpenEXR's default, which gives OpenEXR's bytes.
    pub level: Option<i32>,
    /// Threads compressing chunks (`None`: one per core).
    pub threads: Option<usize>,
}

/// The pixels of one part.
#[derive(Clone, Debug)]
pub enum Pixels<'a> {
    /// A flat part: for each level, in the order of [`Part::levels`]
    /// (scan-line parts have one), one plane per channel in the header's
    /// order, the level's width × height samples row after row,
    /// little-endian. A part with levels given only its first has the
    /// others made from it as OpenEXR's `exrmaketiled` makes them
    /// ([`super::make_levels`], clamped at the edges).
    Flat(Vec<Vec<&'a [u8]>>),
    /// A deep part: for each level, in the order of [`Part::levels`]
    /// (scan-line parts and one-level tiled parts have one), its samples.
    /// Every level is given: no filter makes a deep part's smaller levels.
    Deep(Vec<DeepLevel<'a>>),
}

/// The samples of one level of a deep part: the number at each pixel (row
/// after row) and each channel's samples, pixel after pixel, each pixel's
/// in order, little-endian.
#[derive(Clone, Debug)]
pub struct DeepLevel<'a> {
    /// Samples at each pixel, row after row.
    pub counts: &'a [u32],
    /// Each channel's samples, in the header's order of channels.
    pub channels: Vec<&'a [u8]>,
}

/// A part to write: its header (whose `type`, or `tiles` for a single
/// flat part, says how it is stored) and its pixels.
#[derive(Clone, Debug)]
pub struct WritePart<'a> {
    /// The part's header.
    pub header: &'a Header,
    /// The part's pixels.
    pub pixels: Pixels<'a>,
}

/// Writes `planes` (one per channel of `header`, in the header's order:
/// row after row of little-endian samples) as a single-part OpenEXR file
/// at `path` (a path, a URL or a stream: [`Output`]), compressed as the
/// header's `compression` attribute says.
pub fn write<'a>(
    path: impl Into<Output<'a>>,
    header: &Header,
    planes: &[&[u8]],
    options: &WriteOptions,
) -> Result<()> {
    write_parts(path, &[single(header, planes)], options).map(drop)
}

/// Writes the single-part file into memory.
pub fn write_bytes(header: &Header, planes: &[&[u8]], options: &WriteOptions) -> Result<Vec<u8>> {
    write_parts_bytes(&[single(header, planes)], options)
}

fn single<'a>(header: &'a Header, planes: &[&'a [u8]]) -> WritePart<'a> {
    WritePart {
        header,
        pixels: Pixels::Flat(vec![planes.to_vec()]),
    }
}

/// Writes `parts` as an OpenEXR file at `path` (or, with the `remote`
/// feature, the object a URL names; or into a stream: [`Output`]):
/// single-part for one part, multi-part for more (each part then needs a
/// unique `name` and a `type`; `chunkCount` is set by the writer). Gives
/// the file's size.
pub fn write_parts<'a>(
    path: impl Into<Output<'a>>,
    parts: &[WritePart],
    options: &WriteOptions,
) -> Result<u64> {
    let plan = FilePlan::new(parts, options)?;
    atomic::write_file(path, |file| {
        let mut out = BufWriter::with_capacity(1 << 20, file);
        plan.write(&mut out)?;
        let file = out.into_inner().map_err(|e| Error::from(e.into_error()))?;
        Ok(file.metadata()?.len())
    })
}

/// Writes `parts` into memory.
pub fn write_parts_bytes(parts: &[WritePart], options: &WriteOptions) -> Result<Vec<u8>> {
    let mut out = std::io::Cursor::new(Vec::new());
    FilePlan::new(parts, options)?.write(&mut out)?;
    Ok(out.into_inner())
}

/// The attributes every part of a multi-part file has alike (OpenEXR
/// refuses to open a file whose parts differ in them).
const SHARED: [&str; 5] = [
    "displayWindow",
    "pixelAspectRatio",
    "timeCode",
    "timecode",
    "chromaticities",
];

/// One part, checked: its geometry and where its pixels are.
struct PartPlan<'a> {
    part: Part,
    /// The part's number in the chunks of a multi-part file.
    number: Option<i32>,
    pixels: PartPixels<'a>,
}

/// A part's pixels as the chunk encoders take them.
enum PartPixels<'a> {
    Flat {
        given: &'a [Vec<&'a [u8]>],
        /// The levels made here, after the given first one.
        made: Vec<Vec<Vec<u8>>>,
    },
    /// Each level's samples, in the order of the part's levels.
    Deep(Vec<deep::Samples<'a>>),
}

impl PartPixels<'_> {
    /// The planes of level `level` (an index in the part's levels).
    fn level(&self, level: usize) -> Vec<&[u8]> {
        match self {
            PartPixels::Flat { given, made } => match given.get(level) {
                Some(planes) => planes.clone(),
                None => made[level - 1].iter().map(Vec::as_slice).collect(),
            },
            PartPixels::Deep(_) => Vec::new(),
        }
    }
}

/// One chunk to encode: its part and where it is.
struct Job {
    part: usize,
    level: usize,
    chunk: ChunkRef,
}

/// Everything checked, ready to write.
struct FilePlan<'a> {
    headers: Vec<Header>,
    parts: Vec<PartPlan<'a>>,
    options: &'a WriteOptions,
}

impl<'a> FilePlan<'a> {
    fn new(inputs: &'a [WritePart<'a>], options: &'a WriteOptions) -> Result<Self> {
        if inputs.is_empty() {
            return Err(Error::invalid("a file needs at least one part"));
        }
        let multipart = inputs.len() > 1;
        let mut headers = Vec::with_capacity(inputs.len());
        let mut names = std::collections::HashSet::new();
        for (index, input) in inputs.iter().enumerate() {
            let within = |e: Error| in_part(e, multipart, index);
            let mut header = input.header.clone();
            header.check_writable().map_err(within)?;
            if multipart {
                match header.get("name") {
                    Some(AttributeValue::String(name)) => {
                        if !names.insert(name.clone()) {
                            return Err(within(Error::invalid(format!(
                                "two parts are named {:?}: the names of a multi-part file's \
                                 parts must differ",
                                String::from_utf8_lossy(name)
                            ))));
                        }
                    }
                    _ => {
                        return Err(within(Error::invalid(
                            "a part of a multi-part file needs a name attribute (a string)",
                        )));
                    }
                }
                if header.get("type").is_none() {
                    return Err(within(Error::invalid(
                        "a part of a multi-part file needs a type attribute (scanlineimage, \
                         tiledimage, deepscanline or deeptile)",
                    )));
                }
            }
            if matches!(input.pixels, Pixels::Deep { .. }) && header.get("version").is_none() {
                // OpenEXR requires it of deep parts.
                header.set_sorted("version", AttributeValue::Int(1));
            }
            headers.push(header);
        }
        for (index, header) in headers.iter().enumerate().skip(1) {
            for name in SHARED {
                if header.get(name) != headers[0].get(name) {
                    return Err(Error::invalid(format!(
                        "part {index}'s {name} differs from part 0's: the parts of a file share \
                         displayWindow, pixelAspectRatio, timeCode and chromaticities"
                    )));
                }
            }
        }
        let meta = Headers::describing(&headers.iter().collect::<Vec<_>>());
        let mut parts = Vec::with_capacity(inputs.len());
        for (index, input) in inputs.iter().enumerate() {
            let within = |e: Error| in_part(e, multipart, index);
            let mut part = Part::new(headers[index].clone(), &meta).map_err(within)?;
            if multipart {
                headers[index].set_sorted("chunkCount", AttributeValue::Int(chunk_count(&part)?));
                part = Part::new(headers[index].clone(), &meta).map_err(within)?;
            }
            check_method(&part, options.level).map_err(within)?;
            let pixels = pixels_of(&part, &input.pixels, options).map_err(within)?;
            parts.push(PartPlan {
                part,
                number: multipart.then_some(index as i32),
                pixels,
            });
        }
        Ok(FilePlan {
            headers,
            parts,
            options,
        })
    }

    /// Every chunk of every part, in the order they are written: part by
    /// part, level by level, and in each level as its line order says.
    fn jobs(&self) -> Vec<Job> {
        let mut jobs = Vec::new();
        for (p, plan) in self.parts.iter().enumerate() {
            let part = &plan.part;
            for level in 0..part.levels().len() {
                let mut bands = part.bands(level, &part.level_window(level));
                if part.header().line_order() == LineOrder::DecreasingY {
                    bands.reverse();
                }
                for band in bands {
                    jobs.extend(band.chunks.into_iter().map(|chunk| Job {
                        part: p,
                        level,
                        chunk,
                    }));
                }
            }
        }
        jobs
    }

    fn write(&self, out: &mut (impl Write + Seek)) -> Result<()> {
        let mut head = Vec::new();
        let refs: Vec<&Header> = self.headers.iter().collect();
        write_headers(&refs, &mut head)?;
        let tables_at = head.len() as u64;
        let mut table_start = Vec::with_capacity(self.parts.len());
        let mut total = 0;
        for plan in &self.parts {
            table_start.push(total);
            total += plan.part.chunk_count();
        }
        head.resize(head.len() + 8 * total, 0);
        out.write_all(&head)?;
        let jobs = self.jobs();
        let raw: u64 = self.parts.iter().map(|p| p.part.raw_bytes()).sum();
        let average = (raw / jobs.len().max(1) as u64).max(1) as usize;
        let mut offsets = vec![0u64; total];
        let mut at = head.len() as u64;
        let mut written = jobs.iter();
        Pipeline::new(self.options.threads)?
            .grouping(jobs.len(), average)
            .run(
                jobs.iter(),
                |job, block| {
                    let plan = &self.parts[job.part];
                    match &plan.pixels {
                        PartPixels::Flat { .. } => flat::encode(
                            &plan.part,
                            plan.number,
                            &plan.pixels.level(job.level),
                            job.level,
                            &job.chunk,
                            self.options.level,
                            block,
                        ),
                        PartPixels::Deep(levels) => deep::encode(
                            &plan.part,
                            plan.number,
                            &levels[job.level],
                            job.level,
                            &job.chunk,
                            block,
                        ),
                    }
                },
                |block| {
                    let job = written.next().expect("one block per chunk");
                    offsets[table_start[job.part] + job.chunk.index] = at;
                    at += block.len() as u64;
                    out.write_all(block).map_err(Error::from)
                },
            )?;
        let table: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
        out.seek(SeekFrom::Start(tables_at))?;
        out.write_all(&table)?;
        out.seek(SeekFrom::End(0))?;
        Ok(())
    }
}

/// `error`, said of part `index` in a multi-part file.
fn in_part(error: Error, multipart: bool, index: usize) -> Error {
    if multipart {
        error.within(&format!("part {index}"))
    } else {
        error
    }
}

/// Appends the integers that start `chunk` of `part` (number `number` in
/// a multi-part file) and `sizes` zero bytes for its sizes, filled in once
/// the data is written; returns where the sizes are.
fn begin_chunk(
    part: &Part,
    number: Option<i32>,
    chunk: &ChunkRef,
    sizes: usize,
    block: &mut Vec<u8>,
) -> usize {
    for value in part.chunk_prefix(number, chunk) {
        block.extend_from_slice(&value.to_le_bytes());
    }
    let at = block.len();
    block.resize(at + sizes, 0);
    at
}

/// The `chunkCount` attribute's value.
fn chunk_count(part: &Part) -> Result<i32> {
    i32::try_from(part.chunk_count())
        .map_err(|_| Error::invalid("a part of more than 2^31 chunks: the tiles are too small"))
}

/// The part's method is one oxport writes for its kind, at a level it has.
fn check_method(part: &Part, level: Option<i32>) -> Result<()> {
    let method = part.compression();
    if part.storage().is_deep() {
        if !method.can_write_deep() {
            return Err(Error::invalid(format!(
                "deep parts are compressed with none, rle or zips (what OpenEXR reads), not \
                 {method}"
            )));
        }
    } else if !method.can_write() {
        return Err(Error::Unsupported(
            format!(
                "writing {method} compression (oxport writes {})",
                Compression::writable_names()
            )
            .into(),
        ));
    }
    check_level(method, level)
}

/// Checks `pixels` against `part`, making the levels the caller left out.
fn pixels_of<'a>(
    part: &Part,
    pixels: &'a Pixels<'a>,
    options: &WriteOptions,
) -> Result<PartPixels<'a>> {
    let channels = part.header().channels()?;
    let levels = part.levels();
    if part.storage() != Storage::ScanLines && part.sampling.iter().any(|&s| s != (1, 1)) {
        return Err(Error::invalid(
            "subsampled channels belong in flat scan-line parts (OpenEXR has them nowhere else)",
        ));
    }
    match (pixels, part.storage().is_deep()) {
        (Pixels::Flat(given), false) => {
            if given.len() != 1 && given.len() != levels.len() {
                return Err(Error::invalid(format!(
                    "the part has {} levels: give planes for all of them, or for the first alone \
                     to have the others made; {} were given",
                    levels.len(),
                    given.len()
                )));
            }
            for (index, (planes, level)) in given.iter().zip(levels).enumerate() {
                check_planes(part, index, planes)
                    .map_err(|e| e.within(&format!("level ({}, {})", level.x, level.y)))?;
            }
            let made = match part.storage() {
                Storage::Tiles(tiles) if given.len() < levels.len() => make_levels(
                    &tiles,
                    levels[0].width,
                    levels[0].height,
                    channels,
                    &given[0],
                    (Extrapolation::Clamp, Extrapolation::Clamp),
                    options.threads,
                )?,
                _ => Vec::new(),
            };
            Ok(PartPixels::Flat { given, made })
        }
        (Pixels::Deep(given), true) => {
            if given.len() != levels.len() {
                return Err(Error::invalid(format!(
                    "the deep part has {} levels: give the samples of every one (deep samples \
                     have no filter that makes the smaller levels); {} were given",
                    levels.len(),
                    given.len()
                )));
            }
            given
                .iter()
                .zip(levels)
                .map(|(samples, level)| {
                    check_deep(part, samples, level.width, level.height).map_err(|e| {
                        if levels.len() > 1 {
                            e.within(&format!("level ({}, {})", level.x, level.y))
                        } else {
                            e
                        }
                    })
                })
                .collect::<Result<_>>()
                .map(PartPixels::Deep)
        }
        (Pixels::Flat(_), true) => Err(Error::invalid(
            "the header says deep but the pixels are flat planes",
        )),
        (Pixels::Deep(_), false) => Err(Error::invalid(
            "deep samples for a part whose header is not deep (type deepscanline or deeptile)",
        )),
    }
}

/// `given`, checked against a deep level of `width` × `height` pixels of
/// `part`: a count per pixel, and each channel's samples.
fn check_deep<'a>(
    part: &Part,
    given: &DeepLevel<'a>,
    width: usize,
    height: usize,
) -> Result<deep::Samples<'a>> {
    let channels = part.header().channels()?;
    let DeepLevel {
        counts,
        channels: samples,
    } = given;
    if counts.len() as u128 != width as u128 * height as u128 {
        return Err(Error::invalid(format!(
            "a deep part of {width}×{height} pixels needs {} sample counts, {} were given",
            width as u128 * height as u128,
            counts.len()
        )));
    }
    if samples.len() != channels.len() {
        return Err(Error::invalid(format!(
            "{} channels in the header but {} arrays of samples",
            channels.len(),
            samples.len()
        )));
    }
    let offsets = sample_offsets(counts);
    let total = *offsets.last().expect("one entry or more");
    for ((channel, plane), size) in channels.iter().zip(samples).zip(&part.sizes) {
        if total as u128 * *size as u128 != plane.len() as u128 {
            return Err(Error::invalid(format!(
                "channel {:?}: {total} samples of {size} bytes need {} bytes, {} were given",
                channel.name,
                total as u128 * *size as u128,
                plane.len()
            )));
        }
    }
    Ok(deep::Samples {
        counts,
        channels: samples.clone(),
        offsets,
    })
}

/// One plane per channel of level `level` of `part`, each the level's
/// width × height samples (fewer for a subsampled channel).
fn check_planes(part: &Part, level: usize, planes: &[&[u8]]) -> Result<()> {
    let channels = part.header().channels()?;
    if planes.len() != channels.len() {
        return Err(Error::invalid(format!(
            "{} channels in the header but {} planes of pixels",
            channels.len(),
            planes.len()
        )));
    }
    let window = part.level_window(level);
    let (width, height) = (window.width() as usize, window.height() as usize);
    for (c, (channel, plane)) in channels.iter().zip(planes).enumerate() {
        let (xs, ys) = part.sampling[c];
        let across = samples(window.x_min, width, xs);
        let down = samples(window.y_min, height, ys);
        let size = part.sizes[c];
        let expected = across.checked_mul(down).and_then(|n| n.checked_mul(size));
        if expected != Some(plane.len()) {
            return Err(Error::invalid(format!(
                "channel {:?}: {across}×{down} samples of {size} bytes need {} bytes, the plane \
                 has {}",
                channel.name,
                across as u128 * down as u128 * size as u128,
                plane.len()
            )));
        }
    }
    Ok(())
}

/// The levels a method accepts: its codec's.
fn check_level(method: Compression, level: Option<i32>) -> Result<()> {
    let Some(level) = level else { return Ok(()) };
    let codec = match method {
        Compression::Zip | Compression::Zips | Compression::Pxr24 => Levels::Deflate,
        Compression::Zstd => Levels::Zstd,
        other => {
            return Err(Error::invalid(format!("{other} compression has no levels")));
        }
    };
    codec.check(level).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exr::attribute::{Channel, PixelType};
    use crate::exr::read::{ReadOptions, Reader, Selection};
    use crate::exr::tile::{LevelMode, Rounding, Tiles};

    fn plane(width: usize, height: usize, seed: u32) -> Vec<u8> {
        (0..(width * height) as u32)
            .flat_map(|i| (i * 7 + seed).to_le_bytes())
            .collect()
    }

    fn header(width: u32, height: u32, method: Compression, name: &str, kind: &str) -> Header {
        let mut header = Header::new(
            width,
            height,
            vec![Channel::new("Y", PixelType::Uint)],
            method,
        )
        .unwrap();
        header.set("name", AttributeValue::String(name.as_bytes().to_vec()));
        header.set("type", AttributeValue::String(kind.as_bytes().to_vec()));
        header
    }

    #[test]
    fn a_multipart_file_of_every_layout_reads_back() {
        let scan = header(7, 5, Compression::Zip, "scan", "scanlineimage");
        let mut tiled = header(7, 5, Compression::Rle, "tiled", "tiledimage");
        let tiles = Tiles {
            width: 2,
            height: 3,
            mode: LevelMode::Ripmap,
            rounding: Rounding::Up,
        };
        tiled.set("tiles", tiles.to_attribute());
        tiled.set(
            "lineOrder",
            AttributeValue::LineOrder(LineOrder::DecreasingY),
        );
        let mut deep = header(3, 4, Compression::Zips, "deep", "deepscanline");
        deep.set("displayWindow", scan.get("displayWindow").unwrap().clone());
        let base = plane(7, 5, 1);
        let levels: Vec<Vec<u8>> = tiles
            .levels(&tiled.data_window().unwrap())
            .iter()
            .enumerate()
            .map(|(i, l)| plane(l.width, l.height, 100 * i as u32))
            .collect();
        let counts: Vec<u32> = (0..12).map(|i| i % 3).collect();
        let total: u32 = counts.iter().sum();
        let samples = plane(total as usize, 1, 5);
        let parts = [
            WritePart {
                header: &scan,
                pixels: Pixels::Flat(vec![vec![&base]]),
            },
            WritePart {
                header: &tiled,
                pixels: Pixels::Flat(levels.iter().map(|l| vec![l.as_slice()]).collect()),
            },
            WritePart {
                header: &deep,
                pixels: Pixels::Deep(vec![DeepLevel {
                    counts: &counts,
                    channels: vec![&samples],
                }]),
            },
        ];
        let options = WriteOptions {
            threads: Some(2),
            ..Default::default()
        };
        let file = write_parts_bytes(&parts, &options).unwrap();
        let reader = Reader::new(file.as_slice()).unwrap();
        assert_eq!(reader.parts().len(), 3);
        let read = ReadOptions::default();
        let at = |part: usize, level: (usize, usize)| Selection {
            part,
            level,
            channels: None,
            window: None,
        };
        let got = reader.read_selection(&at(0, (0, 0)), &read).unwrap();
        assert_eq!(got[0], base);
        for (level, expected) in reader.parts()[1].levels().iter().zip(&levels) {
            let got = reader
                .read_selection(&at(1, (level.x, level.y)), &read)
                .unwrap();
            assert_eq!(&got[0], expected, "level ({}, {})", level.x, level.y);
        }
        let got = reader.read_deep(&at(2, (0, 0)), &read).unwrap();
        assert_eq!(got.counts, counts);
        assert_eq!(got.channels, [samples]);
        // Only the first level given: the others are made.
        let made = [WritePart {
            header: &tiled,
            pixels: Pixels::Flat(vec![vec![&base]]),
        }];
        let file = write_parts_bytes(&made, &options).unwrap();
        let reader = Reader::new(file.as_slice()).unwrap();
        let last = *reader.parts()[0].levels().last().unwrap();
        let got = reader
            .read_selection(&at(0, (last.x, last.y)), &read)
            .unwrap();
        assert_eq!(got[0].len(), last.width * last.height * 4);
    }

    #[test]
    fn a_deep_tiled_part_keeps_every_level() {
        let mut deep = header(7, 5, Compression::Rle, "deep", "deeptile");
        let tiles = Tiles {
            width: 2,
            height: 3,
            mode: LevelMode::Ripmap,
            rounding: Rounding::Up,
        };
        deep.set("tiles", tiles.to_attribute());
        let levels = tiles.levels(&deep.data_window().unwrap());
        assert_eq!(levels.len(), 16);
        let counts: Vec<Vec<u32>> = levels
            .iter()
            .map(|l| {
                (0..l.width * l.height)
                    .map(|i| (i + l.x + 2 * l.y) as u32 % 3)
                    .collect()
            })
            .collect();
        let samples: Vec<Vec<u8>> = counts
            .iter()
            .enumerate()
            .map(|(i, c)| plane(c.iter().sum::<u32>() as usize, 1, 1000 * i as u32))
            .collect();
        let given = |count: usize| {
            Pixels::Deep(
                counts[..count]
                    .iter()
                    .zip(&samples)
                    .map(|(counts, samples)| DeepLevel {
                        counts,
                        channels: vec![samples],
                    })
                    .collect(),
            )
        };
        let options = WriteOptions::default();
        let part = |pixels| {
            [WritePart {
                header: &deep,
                pixels,
            }]
        };
        let file = write_parts_bytes(&part(given(levels.len())), &options).unwrap();
        let reader = Reader::new(file.as_slice()).unwrap();
        for (i, level) in levels.iter().enumerate() {
            let selection = Selection {
                level: (level.x, level.y),
                ..Default::default()
            };
            let got = reader
                .read_deep(&selection, &ReadOptions::default())
                .unwrap();
            assert_eq!((got.width, got.height), (level.width, level.height));
            assert_eq!(got.counts, counts[i], "level ({}, {})", level.x, level.y);
            assert_eq!(got.channels, [samples[i].clone()]);
        }
        // Deep levels are not made: each is given.
        let error = write_parts_bytes(&part(given(1)), &options).unwrap_err();
        assert!(error.to_string().contains("has 16 levels"), "{error}");
    }

    #[test]
    fn bad_parts_are_refused_with_reasons() {
        let a = header(2, 2, Compression::Zip, "a", "scanlineimage");
        let pixels = plane(2, 2, 0);
        let flat = || Pixels::Flat(vec![vec![pixels.as_slice()]]);
        let options = WriteOptions::default();
        let two = |h1: &Header, h2: &Header| {
            write_parts_bytes(
                &[
                    WritePart {
                        header: h1,
                        pixels: flat(),
                    },
                    WritePart {
                        header: h2,
                        pixels: flat(),
                    },
                ],
                &options,
            )
            .unwrap_err()
            .to_string()
        };
        assert!(two(&a, &a).contains("two parts are named"));
        let mut unnamed = a.clone();
        unnamed.attributes.retain(|(n, _)| n != "name");
        assert!(two(&a, &unnamed).contains("needs a name"));
        let other = header(3, 2, Compression::Zip, "b", "scanlineimage");
        assert!(two(&a, &other).contains("displayWindow differs"));
        let deep = header(2, 2, Compression::Zips, "d", "deepscanline");
        let error = write_parts_bytes(
            &[WritePart {
                header: &deep,
                pixels: flat(),
            }],
            &options,
        )
        .unwrap_err();
        assert!(error.to_string().contains("says deep"), "{error}");
        let mut mip = a.clone();
        mip.set("type", AttributeValue::String(b"tiledimage".to_vec()));
        mip.set(
            "tiles",
            Tiles {
                width: 1,
                height: 1,
                mode: LevelMode::Mipmap,
                rounding: Rounding::Down,
            }
            .to_attribute(),
        );
        let error = write_parts_bytes(
            &[WritePart {
                header: &mip,
                pixels: Pixels::Flat(vec![vec![pixels.as_slice()]; 3]),
            }],
            &options,
        )
        .unwrap_err();
        assert!(error.to_string().contains("has 2 levels"), "{error}");
    }
}
