//! Merging equal values in first-appearance order, the way Blender's
//! exporter deduplicates normals: a hash table spread over the threads.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hash map keyed by float bit patterns.
pub(super) type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// Merges the items whose key `mine` accepts, in order: returns their normals
/// in first-appearance order with each one's first corner, and calls
/// `store(slot, index)` for each item. `item(i)` is (slot, first corner,
/// vertex, (normal, key)).
///
/// The corners of a smooth vertex usually share its normal, those of a flat
/// face the face's: the last index of each vertex (`cache` vertices; 0 for
/// none) and the previous item's are remembered, and the hash table, whose
/// lookups miss the cache, is asked only when both differ.
pub(super) fn merge_items(
    items: usize,
    item: &impl Fn(usize) -> (usize, usize, usize, ([f32; 3], u64)),
    cache: usize,
    capacity: usize,
    mine: impl Fn(u64) -> bool,
    mut store: impl FnMut(usize, u32),
) -> (Vec<[f32; 3]>, Vec<u32>) {
    let mut index_of: KeyMap<u32> = KeyMap::with_capacity_and_hasher(capacity, Default::default());
    let (mut normals, mut firsts, mut keys) = (Vec::new(), Vec::new(), Vec::new());
    let mut last = vec![u32::MAX; cache];
    let (mut previous_key, mut previous_index) = (u64::MAX, 0u32);
    for i in 0..items {
        let (slot, first, v, (n, key)) = item(i);
        if !mine(key) {
            continue;
        }
        let cached = last.get(v).copied().unwrap_or(u32::MAX);
        let index = if key == previous_key {
            previous_index
        } else if cached != u32::MAX && keys[cached as usize] == key {
            cached
        } else {
            *index_of.entry(key).or_insert_with(|| {
                normals.push(n);
                keys.push(key);
                firsts.push(first as u32);
                normals.len() as u32 - 1
            })
        };
        if let Some(entry) = last.get_mut(v) {
            *entry = index;
        }
        (previous_key, previous_index) = (key, index);
        store(slot, index);
    }
    (normals, firsts)
}

/// A fast hash for keys that are bit patterns of floats (FxHash's mixing):
/// the default SipHash costs more than the rest of the merging.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl KeyHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.add(value);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
