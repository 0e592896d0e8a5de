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
    let first = first_with_key(&keys, pipeline);
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

/// For each provisional value, the first one with its key (itself where
/// none before has it; `None` keys have none). The keys are put in buckets
/// by their top bits (after a bijection that spreads them: an odd
/// multiplier), about 512 to a bucket, and each bucket sorted by key and
/// index: a pass over memory and small sorts in the cache, where one sort
/// of all the keys passes over memory some twenty times.
fn first_with_key(keys: &[Option<u64>], pipeline: &Pipeline) -> Vec<u32> {
    const BUCKET: usize = 512;
    let mut first: Vec<u32> = (0..keys.len() as u32).collect();
    let bits = (keys.len() / BUCKET).max(1).ilog2();
    let spread = |key: u64| key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let bucket = |spread: u64| spread.checked_shr(64 - bits).unwrap_or(0) as usize;
    let mut starts = vec![0usize; (1 << bits) + 1];
    for &key in keys.iter().flatten() {
        starts[bucket(spread(key)) + 1] += 1;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    let mut sorted = vec![(0u64, 0u32); starts[starts.len() - 1]];
    let mut next = starts.clone();
    for (i, key) in keys.iter().enumerate() {
        if let Some(key) = *key {
            let key = spread(key);
            let at = &mut next[bucket(key)];
            sorted[*at] = (key, i as u32);
            *at += 1;
        }
    }
    // The buckets in tasks of about a thread's share, each sorted in turn.
    let share = sorted.len().div_ceil(4 * pipeline.threads()).max(BUCKET);
    let mut tasks: Vec<Vec<&mut [(u64, u32)]>> = vec![Vec::new()];
    let (mut rest, mut in_task) = (&mut sorted[..], 0);
    for size in starts.windows(2).map(|w| w[1] - w[0]) {
        let (bucket, tail) = std::mem::take(&mut rest).split_at_mut(size);
        rest = tail;
        if in_task >= share {
            tasks.push(Vec::new());
            in_task = 0;
        }
        in_task += size;
        tasks.last_mut().expect("a task").push(bucket);
    }
    let repeats = pipeline.map(tasks, |buckets| {
        let mut repeats = Vec::new();
        for bucket in buckets {
            bucket.sort_unstable();
            for group in bucket.chunk_by(|a, b| a.0 == b.0) {
                repeats.extend(group[1..].iter().map(|&(_, later)| (later, group[0].1)));
            }
        }
        repeats
    });
    for (later, earlier) in repeats.into_iter().flatten() {
        first[later as usize] = earlier;
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_value_finds_the_first_with_its_key() {
        // Many keys, some repeated far apart, some absent: what a plain
        // search finds, on one thread and on several.
        let keys: Vec<Option<u64>> = (0..20_000u64)
            .map(|i| (i % 7 != 3).then_some(((i * 7919) % 5003) << (i % 3 * 20)))
            .collect();
        let mut expected = Vec::new();
        for (i, key) in keys.iter().enumerate() {
            let earlier = key.and_then(|k| keys[..i].iter().position(|&o| o == Some(k)));
            expected.push(earlier.unwrap_or(i) as u32);
        }
        for threads in [1, 3] {
            let pipeline = Pipeline::new(Some(threads)).unwrap();
            assert_eq!(first_with_key(&keys, &pipeline), expected);
        }
        let pipeline = Pipeline::new(Some(2)).unwrap();
        assert!(first_with_key(&[], &pipeline).is_empty());
        assert_eq!(
            first_with_key(&[Some(1), None, Some(1)], &pipeline),
            [0, 1, 0]
        );
    }
}
