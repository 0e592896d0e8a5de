//! Merging equal values in first-appearance order, the way Blender's
//! exporters deduplicate normals and UVs: the one merge under the Blender
//! module's normals and UVs and the OBJ writer's `deduplicate_*` options.
//!
//! A hash table of millions of values misses the processor's cache (and its
//! TLB) on nearly every lookup. Neighbouring items usually share their value
//! (the corners around a vertex, or a face's), so one walk in order gives
//! each item the index of an equal value that a small cache finds, or a new
//! provisional one; the provisional values are then sorted by key, and each
//! takes the index of the first one with its key.

use crate::pipeline::Pipeline;

/// One value to merge.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Item<T> {
    /// Where its index is stored (below `slots`).
    pub slot: usize,
    /// Its vertex, for the cache (ignored without one).
    pub vertex: usize,
    pub value: T,
    /// Equal keys merge; `None` never does (NaN is equal to nothing).
    pub key: Option<u64>,
}

/// Merges `item(0..items)` with equal ones in first-appearance order:
/// returns the values in that order and, per slot, its item's index among
/// them (0 for slots no item names). With `cache` vertices, each vertex
/// remembers the value its last item got; the previous item's is kept too.
pub(crate) fn merge<T: Copy + Send + Sync>(
    items: usize,
    item: impl Fn(usize) -> Item<T>,
    cache: usize,
    slots: usize,
    pipeline: &Pipeline,
) -> (Vec<T>, Vec<u32>) {
    // Provisional indices: equal values the caches miss get several.
    let (mut values, mut keys) = (Vec::new(), Vec::new());
    let mut provisional = vec![0u32; slots];
    let mut last = vec![u32::MAX; cache];
    let mut previous: Option<(u64, u32)> = None;
    for i in 0..items {
        let Item {
            slot,
            vertex,
            value,
            key,
        } = item(i);
        let cached = match (key, previous) {
            (None, _) => None,
            (Some(key), Some((k, index))) if k == key => Some(index),
            (Some(key), _) => last
                .get(vertex)
                .copied()
                .filter(|&c| c != u32::MAX && keys[c as usize] == Some(key)),
        };
        let index = cached.unwrap_or_else(|| {
            values.push(value);
            keys.push(key);
            values.len() as u32 - 1
        });
        if let Some(entry) = last.get_mut(vertex) {
            *entry = index;
        }
        previous = key.map(|key| (key, index));
        provisional[slot] = index;
    }
    drop(last);
    // Sorted by key then provisional index, the first of each key is the
    // first appearance of its value.
    let mut by_key: Vec<(u64, u32)> = keys
        .iter()
        .enumerate()
        .filter_map(|(i, key)| key.map(|key| (key, i as u32)))
        .collect();
    pipeline.sort_unstable_by(&mut by_key, size_of::<(u64, u32)>(), Ord::cmp);
    let mut first: Vec<u32> = (0..values.len() as u32).collect();
    for group in by_key.chunk_by(|a, b| a.0 == b.0) {
        for &(_, later) in &group[1..] {
            first[later as usize] = group[0].1;
        }
    }
    // The first appearances, numbered in order; the others take their number.
    let mut merged = Vec::new();
    let mut index = vec![0u32; values.len()];
    for (p, &f) in first.iter().enumerate() {
        index[p] = if f as usize == p {
            merged.push(values[p]);
            merged.len() as u32 - 1
        } else {
            index[f as usize] // f < p: numbered already
        };
    }
    let slot_indices = pipeline.map_indices(provisional.len(), 8, |slot| {
        index.get(provisional[slot] as usize).copied().unwrap_or(0)
    });
    (merged, slot_indices)
}
