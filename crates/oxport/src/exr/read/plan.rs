//! The plan of a read: a selection checked against the file (part, level,
//! window, channels) and the bands of chunks that cover it.

use super::{Reader, Selection, Shape};
use crate::exr::attribute::Window;
use crate::exr::chunk::samples;
use crate::exr::part::{Band, ChunkRef, Part};
use crate::source::Source;
use crate::{Error, Result};

impl<S: Source> Reader<S> {
    /// Checks `selection` against the file: a flat part for
    /// [`Reader::read_selection`], a deep one for [`Reader::read_deep`].
    pub(super) fn resolve(&self, selection: &Selection) -> Result<Plan<'_>> {
        self.resolve_as(selection, false)
    }

    pub(in crate::exr) fn resolve_as(&self, selection: &Selection, deep: bool) -> Result<Plan<'_>> {
        let part = self.parts.get(selection.part).ok_or_else(|| {
            Error::invalid(format!(
                "part {} of a file of {} parts",
                selection.part,
                self.parts.len()
            ))
        })?;
        part.check_readable()?;
        match (part.storage().is_deep(), deep) {
            (true, false) => {
                return Err(Error::invalid(format!(
                    "part {} is deep (any number of samples per pixel): read it as deep",
                    selection.part
                )));
            }
            (false, true) => {
                return Err(Error::invalid(format!(
                    "part {} is not deep: read its pixels, not its samples",
                    selection.part
                )));
            }
            _ => {}
        }
        let (lx, ly) = selection.level;
        let level = part.level_index(lx, ly).ok_or_else(|| {
            Error::invalid(format!(
                "level ({lx}, {ly}): the part has {}",
                describe_levels(part)
            ))
        })?;
        let whole = part.level_window(level);
        let window = selection.window.unwrap_or(whole);
        if window.width() == 0
            || window.height() == 0
            || window.x_min < whole.x_min
            || window.y_min < whole.y_min
            || window.x_max > whole.x_max
            || window.y_max > whole.y_max
        {
            return Err(Error::invalid(format!(
                "window {window:?} is not inside the level's data window {whole:?}"
            )));
        }
        let count = part.sizes.len();
        let channels = selection
            .channels
            .clone()
            .unwrap_or_else(|| (0..count).collect());
        if let Some(&bad) = channels.iter().find(|&&c| c >= count) {
            return Err(Error::invalid(format!(
                "channel {bad} of a part of {count} channels"
            )));
        }
        let shapes = channels
            .iter()
            .map(|&c| {
                let (xs, ys) = part.sampling[c];
                Shape {
                    channel: c,
                    width: samples(window.x_min, window.width() as usize, xs),
                    height: samples(window.y_min, window.height() as usize, ys),
                    sample_size: part.sizes[c],
                }
            })
            .collect();
        Ok(Plan {
            part_index: selection.part,
            multipart: self.multipart,
            part,
            bands: part.bands(level, &window),
            window,
            shapes,
        })
    }
}

fn describe_levels(part: &Part) -> String {
    let levels = part.levels();
    match levels.last() {
        Some(last) if levels.len() > 1 => {
            format!("{} levels, up to ({}, {})", levels.len(), last.x, last.y)
        }
        _ => "one level, (0, 0)".into(),
    }
}

/// A checked selection: the part, the window, the planes and the bands of
/// chunks that cover them.
pub(in crate::exr) struct Plan<'a> {
    pub part_index: usize,
    /// Chunks start with their part's index.
    pub multipart: bool,
    pub part: &'a Part,
    pub window: Window,
    pub shapes: Vec<Shape>,
    pub bands: Vec<Band>,
}

impl Plan<'_> {
    /// The numbers `chunk`'s prefix starts with: the part's index in a
    /// multi-part file, then y or the tile's four coordinates.
    pub fn chunk_prefix(&self, chunk: &ChunkRef) -> Vec<i32> {
        let number = self.multipart.then_some(self.part_index as i32);
        self.part.chunk_prefix(number, chunk)
    }
}
