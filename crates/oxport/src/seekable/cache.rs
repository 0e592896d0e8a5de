//! The few most recently read frames, so that small reads in a row (a file
//! object read in 4 KiB steps) decompress each frame once.

use std::sync::{Arc, Mutex, MutexGuard};

/// Frames kept: enough for reads that alternate between neighbours.
const FRAMES: usize = 4;

/// Values by frame (their decompressed offset), most recently used last.
pub struct Cache<T> {
    entries: Mutex<Vec<(u64, Arc<T>)>>,
}

impl<T> Default for Cache<T> {
    fn default() -> Self {
        Cache {
            entries: Mutex::new(Vec::new()),
        }
    }
}

impl<T> Cache<T> {
    /// The value of the frame at `offset`, made by `make` when it is not
    /// held; with it, the least recently used value if one was dropped to
    /// make room and nothing else holds it (to reuse its memory).
    pub fn get_or_insert_with(&self, offset: u64, make: impl FnOnce() -> T) -> (Arc<T>, Option<T>) {
        let mut entries = self.lock();
        if let Some(at) = entries.iter().position(|(o, _)| *o == offset) {
            let entry = entries.remove(at);
            let value = Arc::clone(&entry.1);
            entries.push(entry);
            return (value, None);
        }
        let dropped = (entries.len() == FRAMES).then(|| entries.remove(0).1);
        let value = Arc::new(make());
        entries.push((offset, Arc::clone(&value)));
        (value, dropped.and_then(|value| Arc::try_unwrap(value).ok()))
    }

    fn lock(&self) -> MutexGuard<'_, Vec<(u64, Arc<T>)>> {
        crate::sync::lock(&self.entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_frame_goes_first() {
        let cache = Cache::default();
        for offset in 0..4 {
            cache.get_or_insert_with(offset, || offset);
        }
        // 0 is now the most recent; 1 goes to make room for 9.
        assert_eq!(*cache.get_or_insert_with(0, || 100).0, 0);
        let (nine, dropped) = cache.get_or_insert_with(9, || 9);
        assert_eq!((*nine, dropped), (9, Some(1)));
        assert_eq!(*cache.get_or_insert_with(1, || 101).0, 101);
        assert_eq!(*cache.get_or_insert_with(0, || 100).0, 0);
    }
}
