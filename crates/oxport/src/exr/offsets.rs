//! The offset table: where each chunk starts. The table says where a chunk
//! begins, not how long it is: a chunk is read as the bytes up to the next
//! chunk (one read each), and checked when it is decoded. A table with an
//! entry that does not point at its chunk (a file whose writer stopped
//! before it wrote the table) is rebuilt by walking the chunks, as OpenEXR
//! does.

use crate::source::Source;
use crate::{Error, Result};

/// Where a chunk is: the offset of its 8-byte prefix (y, then the data's
/// size) and how many bytes from there may hold it. `exact`: the span is
/// the chunk and nothing else (found by walking); otherwise it reaches to
/// the next chunk in the file (or the file's end) and the prefix decides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Span {
    pub offset: u64,
    pub len: u64,
    pub exact: bool,
}

/// The table of `count` entries at `table` in a source of `size` bytes.
pub(crate) fn read_table<S: Source + ?Sized>(
    source: &S,
    size: u64,
    table: u64,
    count: usize,
) -> Result<Vec<u64>> {
    let bytes = (count as u64)
        .checked_mul(8)
        .filter(|&n| n <= size.saturating_sub(table))
        .ok_or(Error::Corrupt {
            what: "the file ends inside its offset table",
            offset: Some(size),
            path: None,
        })?;
    // At most the file's size: checked just above.
    let mut raw = vec![0u8; bytes as usize];
    source.read_exact_at(&mut raw, table)?;
    Ok(raw
        .chunks_exact(8)
        .map(|entry| u64::from_le_bytes(entry.try_into().expect("8 bytes")))
        .collect())
}

/// The span of each entry: from its offset to the next larger one, the
/// last to the end of the file. `None` when an entry points outside the
/// chunks (before the end of the table or past the file): the table must
/// be rebuilt.
pub(crate) fn spans(entries: &[u64], first_chunk: u64, size: u64) -> Option<Vec<Span>> {
    if entries
        .iter()
        .any(|&o| o < first_chunk || o.saturating_add(8) > size)
    {
        return None;
    }
    let mut sorted = entries.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    Some(
        entries
            .iter()
            .map(|&offset| {
                let next = sorted.partition_point(|&o| o <= offset);
                let end = sorted.get(next).copied().unwrap_or(size);
                Span {
                    offset,
                    len: end - offset,
                    exact: false,
                }
            })
            .collect(),
    )
}

/// A chunk found by walking: its part, its index in the part's table, its
/// length with its prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub part: usize,
    pub index: usize,
    pub len: u64,
}

/// Walks the chunks from `first_chunk` in a source of `size` bytes,
/// placing each where `locate` (reading its prefix) says: the exact span
/// of every chunk of parts of `counts` chunks. The walk stops at the first
/// bytes that are not a chunk of the file.
pub(crate) fn rebuild(
    size: u64,
    first_chunk: u64,
    counts: &[usize],
    mut locate: impl FnMut(u64) -> Result<Option<Found>>,
) -> Result<Vec<Vec<Span>>> {
    let mut found: Vec<Vec<Option<Span>>> = counts.iter().map(|&n| vec![None; n]).collect();
    let total: usize = counts.iter().sum();
    let mut at = first_chunk;
    let mut placed = 0;
    while placed < total && at.saturating_add(8) <= size {
        let Some(chunk) = locate(at)? else { break };
        if chunk.len > size - at {
            break;
        }
        let Some(slot) = found
            .get_mut(chunk.part)
            .and_then(|part| part.get_mut(chunk.index))
        else {
            break;
        };
        if slot.is_none() {
            placed += 1;
        }
        *slot = Some(Span {
            offset: at,
            len: chunk.len,
            exact: true,
        });
        at += chunk.len;
    }
    found
        .into_iter()
        .map(|part| {
            part.into_iter()
                .map(|span| {
                    span.ok_or(Error::Corrupt {
                        what: "a chunk is missing: the offset table is broken and the chunks stop early",
                        offset: Some(at),
                        path: None,
                    })
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `n` one-line chunks of 3 bytes, y from 10, with a table at 0.
    fn file(n: usize) -> Vec<u8> {
        let mut f = vec![0; 8 * n];
        for i in 0..n {
            let at = f.len() as u64;
            f[i * 8..i * 8 + 8].copy_from_slice(&at.to_le_bytes());
            f.extend_from_slice(&(i as i32 + 10).to_le_bytes());
            f.extend_from_slice(&3i32.to_le_bytes());
            f.extend_from_slice(&[i as u8; 3]);
        }
        f
    }

    #[test]
    fn spans_reach_to_the_next_chunk_and_the_end() {
        let good = file(4);
        let size = good.len() as u64;
        let entries = read_table(good.as_slice(), size, 0, 4).unwrap();
        let found = spans(&entries, 32, size).unwrap();
        assert_eq!(
            found[0],
            Span {
                offset: 32,
                len: 11,
                exact: false
            }
        );
        assert_eq!(found[3].offset + found[3].len, size);
        // Out of order entries still end at the next chunk in the file.
        let swapped = [entries[2], entries[0], entries[3], entries[1]];
        assert!(
            spans(&swapped, 32, size)
                .unwrap()
                .iter()
                .all(|s| s.len == 11)
        );
        // An entry inside the table or past the end: rebuild.
        assert!(spans(&[0, 43, 54, 65], 32, size).is_none());
        assert!(spans(&[32, 43, 54, size - 4], 32, size).is_none());
        assert!(read_table(good.as_slice(), 20, 0, 4).is_err());
        assert!(read_table(good.as_slice(), size, 0, usize::MAX).is_err());
    }

    #[test]
    fn broken_tables_are_rebuilt_by_walking() {
        let mut zeroed = file(4);
        zeroed[8..32].fill(0);
        let size = zeroed.len() as u64;
        // One-line chunks from y = `y_min`, 3 bytes of data each.
        let walk = |bytes: &[u8], y_min: i32| {
            rebuild(bytes.len() as u64, 32, &[4], |at| {
                let at = at as usize;
                let y = i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
                let data = i32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap());
                Ok(usize::try_from(y - y_min).ok().map(|index| Found {
                    part: 0,
                    index,
                    len: 8 + data as u64,
                }))
            })
        };
        let rebuilt = walk(&zeroed, 10).unwrap();
        assert_eq!(
            rebuilt[0][2],
            Span {
                offset: 54,
                len: 11,
                exact: true
            }
        );
        assert_eq!(rebuilt[0][3].offset + rebuilt[0][3].len, size);
        // Truncated inside the last chunk, or a y outside the window: an error, not a panic.
        assert!(walk(&zeroed[..zeroed.len() - 1], 10).is_err());
        assert!(walk(&zeroed, 11).is_err());
    }
}
