//! Where each chunk lies: the offset tables' spans, or (when a table is
//! broken) the chunks found by walking the file as OpenEXR does; the rules
//! of spans are `offsets.rs`'.

use super::Reader;
use crate::Result;
use crate::exr::offsets::{self, Found, Span};
use crate::exr::part::Part;
use crate::source::Source;

impl<S: Source> Reader<S> {
    /// Each part's chunks found by walking the file from the first chunk,
    /// as OpenEXR does when a table is broken.
    pub(super) fn walk(&self) -> Result<Vec<Vec<Span>>> {
        let counts: Vec<usize> = self.parts.iter().map(Part::chunk_count).collect();
        offsets::rebuild(self.size, self.first_chunk, &counts, |at| self.locate(at))
    }

    /// The chunk that starts at `at`, by its prefix: `None` when the bytes
    /// there are not a chunk of this file.
    fn locate(&self, at: u64) -> Result<Option<Found>> {
        let mut head = [0u8; 4 + 16 + 24];
        let available = (self.size - at).min(head.len() as u64) as usize;
        self.source.read_exact_at(&mut head[..available], at)?;
        let int = |i: usize| i32::from_le_bytes(head[i..i + 4].try_into().expect("4 bytes"));
        let (part_index, from) = if self.multipart {
            (usize::try_from(int(0)).ok(), 4)
        } else {
            (Some(0), 0)
        };
        let Some(part) = part_index.and_then(|p| self.parts.get(p)) else {
            return Ok(None);
        };
        let prefix = part.prefix_len();
        if from + prefix > available {
            return Ok(None);
        }
        let tiled = part.storage().tiles().is_some();
        let coords = if tiled {
            [int(from), int(from + 4), int(from + 8), int(from + 12)]
        } else {
            [int(from), 0, 0, 0]
        };
        let sizes_at = from + if tiled { 16 } else { 4 };
        let data = if part.storage().is_deep() {
            let long = |i: usize| u64::from_le_bytes(head[i..i + 8].try_into().expect("8 bytes"));
            long(sizes_at).checked_add(long(sizes_at + 8))
        } else {
            u64::try_from(int(sizes_at)).ok()
        };
        let (Some(data), Some(index)) = (data, part.index_of(coords)) else {
            return Ok(None);
        };
        Ok(Some(Found {
            part: part_index.expect("checked"),
            index,
            len: ((from + prefix) as u64).saturating_add(data),
        }))
    }
}

/// Each part's chunks where its `table` says, each reaching to the next
/// chunk of any part (chunks start at `first_chunk` in a source of `size`
/// bytes); `None` when an entry points outside the chunks.
pub(super) fn table_spans(
    tables: &[Vec<u64>],
    first_chunk: u64,
    size: u64,
) -> Option<Vec<Vec<Span>>> {
    let all: Vec<u64> = tables.iter().flatten().copied().collect();
    let spans = offsets::spans(&all, first_chunk, size)?;
    let mut rest = spans.as_slice();
    Some(
        tables
            .iter()
            .map(|t| {
                let (mine, after) = rest.split_at(t.len());
                rest = after;
                mine.to_vec()
            })
            .collect(),
    )
}
