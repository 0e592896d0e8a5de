//! The order `std::sort` of GCC's C++ library leaves items in: Blender's
//! importer sorts its objects by name with it (through TBB's
//! `parallel_sort`, which sorts fewer than 500 items with `std::sort`), and
//! the sort is not stable, so which of two objects of one name comes first
//! (and keeps the name, the other getting `.001`) is the one this
//! algorithm leaves first: introsort (median-of-three quicksort down to runs
//! of 16, heapsort past a depth of twice the log of the count), then an
//! insertion sort over the whole.

use std::cmp::Ordering;

/// Runs shorter than this are left to the final insertion sort.
const THRESHOLD: usize = 16;

/// Sorts `items` as `std::sort(begin, end, less)` does, where `less(a, b)`
/// is `order(a, b) == Less`.
pub(crate) fn std_sort<T>(items: &mut [T], order: impl Fn(&T, &T) -> Ordering) {
    let less = |a: &T, b: &T| order(a, b) == Ordering::Less;
    let n = items.len();
    if n < 2 {
        return;
    }
    let depth = 2 * (usize::BITS - 1 - n.leading_zeros()) as usize;
    introsort_loop(items, depth, &less);
    final_insertion_sort(items, &less);
}

fn introsort_loop<T>(mut items: &mut [T], mut depth: usize, less: &impl Fn(&T, &T) -> bool) {
    while items.len() > THRESHOLD {
        if depth == 0 {
            heap_sort(items, less);
            return;
        }
        depth -= 1;
        let cut = partition_pivot(items, less);
        let (head, tail) = items.split_at_mut(cut);
        introsort_loop(tail, depth, less);
        items = head;
    }
}

/// The median of the second, middle and last items moved to the front, then
/// the rest partitioned around it; gives where the upper part starts.
fn partition_pivot<T>(items: &mut [T], less: &impl Fn(&T, &T) -> bool) -> usize {
    let n = items.len();
    let (a, b, c) = (1, n / 2, n - 1);
    let median = if less(&items[a], &items[b]) {
        if less(&items[b], &items[c]) {
            b
        } else if less(&items[a], &items[c]) {
            c
        } else {
            a
        }
    } else if less(&items[a], &items[c]) {
        a
    } else if less(&items[b], &items[c]) {
        c
    } else {
        b
    };
    items.swap(0, median);
    // The unguarded partition of items[1..] around items[0]: the median of
    // three stops both scans before they leave the slice.
    let (mut first, mut last) = (1, n);
    loop {
        while less(&items[first], &items[0]) {
            first += 1;
        }
        last -= 1;
        while less(&items[0], &items[last]) {
            last -= 1;
        }
        if first >= last {
            return first;
        }
        items.swap(first, last);
        first += 1;
    }
}

fn final_insertion_sort<T>(items: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    // (Past the first run, the smallest item is already in it: the
    // unguarded insertion of libstdc++ moves items the same way.)
    for i in 1..items.len() {
        if i < THRESHOLD && less(&items[i], &items[0]) {
            items[..=i].rotate_right(1);
        } else {
            let mut j = i;
            while j > 0 && less(&items[j], &items[j - 1]) {
                items.swap(j, j - 1);
                j -= 1;
            }
        }
    }
}

/// `std::partial_sort(first, last, last)`: a max-heap made, then popped.
fn heap_sort<T>(items: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    let n = items.len();
    for parent in (0..n / 2).rev() {
        adjust_heap(items, parent, n, less);
    }
    for end in (1..n).rev() {
        // libstdc++'s __pop_heap: the top to the end, then the old last
        // item sifted down from the top.
        items.swap(0, end);
        adjust_heap(items, 0, end, less);
    }
}

/// libstdc++'s `__adjust_heap`: the hole at `hole` moved down to a leaf
/// along the larger children (the right one on ties), then the item pushed
/// up from there.
fn adjust_heap<T>(items: &mut [T], mut hole: usize, len: usize, less: &impl Fn(&T, &T) -> bool) {
    let top = hole;
    let mut child = hole;
    while child < (len - 1) / 2 {
        child = 2 * (child + 1);
        if less(&items[child], &items[child - 1]) {
            child -= 1;
        }
        items.swap(hole, child);
        hole = child;
    }
    if len.is_multiple_of(2) && child == (len - 2) / 2 {
        child = 2 * (child + 1);
        items.swap(hole, child - 1);
        hole = child - 1;
    }
    // __push_heap: up while the parent is less than the item.
    while hole > top {
        let parent = (hole - 1) / 2;
        if !less(&items[parent], &items[hole]) {
            break;
        }
        items.swap(hole, parent);
        hole = parent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorted by key, whatever the input: the order of equal keys is what
    /// the other test pins down.
    #[test]
    fn sorts() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for n in [0, 1, 2, 3, 15, 16, 17, 33, 100, 499] {
            let mut items: Vec<(u32, usize)> = (0..n)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    ((seed % 7) as u32, i)
                })
                .collect();
            std_sort(&mut items, |a, b| a.0.cmp(&b.0));
            assert!(items.windows(2).all(|w| w[0].0 <= w[1].0), "{n}");
            let mut seen: Vec<usize> = items.iter().map(|i| i.1).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..n).collect::<Vec<_>>());
        }
        // The heapsort alone (the depth limit reached at once).
        let mut items: Vec<u32> = (0..40).map(|i| (i * 17) % 23).collect();
        heap_sort(&mut items, &|a: &u32, b: &u32| a < b);
        assert!(items.windows(2).all(|w| w[0] <= w[1]));
    }
}
