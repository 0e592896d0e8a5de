//! The offset table: where each chunk starts. A table with an entry that
//! does not point at its chunk (a file whose writer stopped before it wrote
//! the table) is rebuilt by walking the chunks, as OpenEXR does.

use super::cursor::Cursor;
use crate::{Error, Result};

/// A chunk found in the file: its first line and its compressed bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChunkRef<'a> {
    pub y: i32,
    pub data: &'a [u8],
}

/// The chunks of a file whose table starts at `table` and holds `count`
/// entries, for chunks of `lines` lines starting at `y_min`; in chunk order
/// (increasing y).
pub(crate) fn chunks(
    file: &[u8],
    table: usize,
    count: usize,
    y_min: i32,
    lines: usize,
) -> Result<Vec<ChunkRef<'_>>> {
    let table_bytes = count
        .checked_mul(8)
        .filter(|&n| n <= file.len().saturating_sub(table));
    let Some(table_bytes) = table_bytes else {
        return Err(Error::Corrupt {
            what: "the file ends inside its offset table",
            offset: Some(file.len() as u64),
        });
    };
    let first_chunk = table + table_bytes;
    let mut chunks = Vec::with_capacity(count);
    let mut c = Cursor::new(&file[table..first_chunk], table as u64);
    for index in 0..count {
        let offset = c.u64("an offset")?;
        match chunk_at(file, offset, first_chunk) {
            Some(chunk) if chunk.y == expected_y(y_min, lines, index) => chunks.push(chunk),
            _ => return rebuild(file, first_chunk, count, y_min, lines),
        }
    }
    Ok(chunks)
}

fn expected_y(y_min: i32, lines: usize, index: usize) -> i32 {
    (i64::from(y_min) + (index * lines) as i64) as i32
}

/// The chunk at `offset`, if one fits there.
fn chunk_at(file: &[u8], offset: u64, first_chunk: usize) -> Option<ChunkRef<'_>> {
    let offset = usize::try_from(offset).ok().filter(|&o| o >= first_chunk)?;
    let head = file.get(offset..offset.checked_add(8)?)?;
    let y = i32::from_le_bytes(head[..4].try_into().expect("4"));
    let size = usize::try_from(i32::from_le_bytes(head[4..].try_into().expect("4"))).ok()?;
    let data = file.get(offset + 8..(offset + 8).checked_add(size)?)?;
    Some(ChunkRef { y, data })
}

/// Walks the chunks from the end of the table, placing each by its y.
fn rebuild(
    file: &[u8],
    first_chunk: usize,
    count: usize,
    y_min: i32,
    lines: usize,
) -> Result<Vec<ChunkRef<'_>>> {
    let mut found: Vec<Option<ChunkRef>> = vec![None; count];
    let mut at = first_chunk;
    while let Some(chunk) = chunk_at(file, at as u64, first_chunk) {
        let index = (i64::from(chunk.y) - i64::from(y_min)) / lines as i64;
        let aligned = (i64::from(chunk.y) - i64::from(y_min)) % lines as i64 == 0;
        match found.get_mut(usize::try_from(index).unwrap_or(usize::MAX)) {
            Some(slot) if aligned && chunk.y >= y_min => *slot = Some(chunk),
            _ => break,
        }
        at += 8 + chunk.data.len();
    }
    found
        .into_iter()
        .map(|chunk| {
            chunk.ok_or(Error::Corrupt {
                what: "a chunk is missing: the offset table is broken and the chunks stop early",
                offset: Some(at as u64),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `n` one-line chunks at 16.. with a table at 0.
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
    fn good_tables_are_used_and_broken_ones_rebuilt() {
        let good = file(4);
        let found = chunks(&good, 0, 4, 10, 1).unwrap();
        assert_eq!(found[3].y, 13);
        assert_eq!(found[3].data, [3, 3, 3]);
        let mut zeroed = good.clone();
        zeroed[8..32].fill(0);
        let rebuilt = chunks(&zeroed, 0, 4, 10, 1).unwrap();
        assert_eq!(rebuilt[2].data, [2, 2, 2]);
        // Truncated inside the last chunk: an error, not a panic.
        assert!(chunks(&zeroed[..zeroed.len() - 1], 0, 4, 10, 1).is_err());
        assert!(chunks(&good[..20], 0, 4, 10, 1).is_err());
        assert!(chunks(&good, 0, usize::MAX, 10, 1).is_err());
    }
}
