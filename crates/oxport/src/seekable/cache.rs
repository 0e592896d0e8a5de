//! The few most recently decompressed frames, so that small reads in a row
//! (a file object read in 4 KiB steps) decompress each frame once.

use std::sync::{Arc, Mutex};

/// Frames kept: enough for reads that alternate between neighbours.
const FRAMES: usize = 4;

/// Decompressed frames by their decompressed offset, most recent last.
#[derive(Default)]
pub struct Cache {
    frames: Mutex<Vec<(u64, Arc<Vec<u8>>)>>,
}

impl Cache {
    /// The frame at `offset`, if it is held.
    pub fn get(&self, offset: u64) -> Option<Arc<Vec<u8>>> {
        let mut frames = self.lock();
        let at = frames.iter().position(|(o, _)| *o == offset)?;
        let entry = frames.remove(at);
        let data = Arc::clone(&entry.1);
        frames.push(entry);
        Some(data)
    }

    /// Keeps the frame at `offset`, dropping the least recently used.
    pub fn insert(&self, offset: u64, data: Arc<Vec<u8>>) {
        let mut frames = self.lock();
        frames.retain(|(o, _)| *o != offset);
        if frames.len() == FRAMES {
            frames.remove(0);
        }
        frames.push((offset, data));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(u64, Arc<Vec<u8>>)>> {
        // Each change is complete before the lock is released.
        self.frames.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_frame_goes_first() {
        let cache = Cache::default();
        for offset in 0..4 {
            cache.insert(offset, Arc::new(vec![offset as u8]));
        }
        assert!(cache.get(0).is_some()); // 0 is now the most recent
        cache.insert(9, Arc::new(vec![9]));
        assert!(cache.get(1).is_none());
        assert_eq!(*cache.get(0).unwrap(), vec![0]);
        assert_eq!(*cache.get(9).unwrap(), vec![9]);
    }
}
