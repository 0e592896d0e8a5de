//! Scratch buffers reused on each thread: a chunk's or a frame's
//! intermediate bytes (filtered, decompressed, packed, read) need memory the
//! size of the chunk, and allocating and zeroing it for every chunk costs as
//! much as a fast codec's work. The one cache of them for every reader and
//! writer, bounded: a thread keeps a few buffers, none past 64 MiB. Bytes
//! are lent for a call ([`with_buffer`]); buffers of other elements, which
//! outlive a call (a codec's planes of integers), are taken and given back
//! ([`take`], [`give`]), up to 64 MiB of each type a thread.

use std::cell::RefCell;

/// The most buffers a thread keeps (nested calls take one each).
const KEPT: usize = 4;
/// A buffer larger than this is freed after its use, not kept.
const LARGEST_KEPT: usize = 64 << 20;

thread_local! {
    static POOL: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `work` on a buffer of `len` bytes from this thread's pool. The
/// bytes hold whatever an earlier use left: `work` must write every byte it
/// reads. Calls may nest (each takes its own buffer).
pub(crate) fn with_buffer<R>(len: usize, work: impl FnOnce(&mut [u8]) -> R) -> R {
    let mut buffer = POOL
        .with(|pool| pool.borrow_mut().pop())
        .unwrap_or_default();
    if buffer.len() < len {
        buffer.resize(len, 0);
    }
    let result = work(&mut buffer[..len]);
    if buffer.capacity() <= LARGEST_KEPT {
        POOL.with(|pool| {
            let mut pool = pool.borrow_mut();
            if pool.len() < KEPT {
                pool.push(buffer);
            }
        });
    }
    result
}

/// The element types of the buffers [`take`] and [`give`] keep.
pub(crate) trait Pooled: Copy + Default + 'static {
    /// Runs `work` on this thread's buffers of this type.
    fn with_pool<R>(work: impl FnOnce(&mut Vec<Vec<Self>>) -> R) -> R;
}

macro_rules! pooled {
    ($($t:ty),*) => {$(
        impl Pooled for $t {
            fn with_pool<R>(work: impl FnOnce(&mut Vec<Vec<Self>>) -> R) -> R {
                thread_local! {
                    static POOL: RefCell<Vec<Vec<$t>>> = const { RefCell::new(Vec::new()) };
                }
                POOL.with(|pool| work(&mut pool.borrow_mut()))
            }
        }
    )*};
}

pooled!(i32, i64);

/// A buffer of `len` elements from this thread's pool, holding whatever an
/// earlier use left (the caller writes every element before it reads it),
/// or a new one of zeros. Only a buffer not twice as long is taken: one
/// cut short stays short, and a small use would waste a large one.
pub(crate) fn take<T: Pooled>(len: usize) -> Vec<T> {
    let kept = T::with_pool(|pool| {
        (0..pool.len())
            .filter(|&i| (len..=2 * len).contains(&pool[i].len()))
            .min_by_key(|&i| pool[i].len())
            .map(|i| pool.swap_remove(i))
    });
    match kept {
        Some(mut buffer) => {
            buffer.truncate(len);
            buffer
        }
        None => vec![T::default(); len],
    }
}

/// Gives `buffer` to this thread's pool, for a later [`take`] (dropped if
/// the thread's buffers of its type would pass [`LARGEST_KEPT`]).
pub(crate) fn give<T: Pooled>(buffer: Vec<T>) {
    let size = std::mem::size_of::<T>();
    T::with_pool(|pool| {
        let kept: usize = pool.iter().map(|b| b.capacity() * size).sum();
        if kept + buffer.capacity() * size <= LARGEST_KEPT {
            pool.push(buffer);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_reused_and_nest() {
        let first = with_buffer(100, |b| {
            b.fill(7);
            b.as_ptr() as usize
        });
        let again = with_buffer(50, |b| {
            let inner = with_buffer(10, |c| c.as_ptr() as usize);
            assert_ne!(inner, b.as_ptr() as usize);
            b.as_ptr() as usize
        });
        assert_eq!(first, again);
    }

    #[test]
    fn the_pool_is_bounded() {
        let kept = || POOL.with(|pool| pool.borrow().iter().map(Vec::capacity).collect::<Vec<_>>());
        with_buffer(LARGEST_KEPT + 1, |b| b[0] = 1);
        assert!(kept().iter().all(|&c| c <= LARGEST_KEPT), "{:?}", kept());
        fn nest(depth: usize) {
            if depth > 0 {
                with_buffer(16, |_| nest(depth - 1));
            }
        }
        nest(KEPT + 3);
        assert!(kept().len() <= KEPT, "{:?}", kept());
    }

    #[test]
    fn typed_buffers_are_reused_within_twice_their_length_and_bounded() {
        let mut first = take::<i32>(1000);
        assert!(first.iter().all(|&v| v == 0));
        first.fill(7);
        let at = first.as_ptr() as usize;
        give(first);
        // Too short a use for it: a new buffer.
        let small = take::<i32>(100);
        assert_ne!(small.as_ptr() as usize, at);
        // Within twice: the same, with what the last use left.
        let again = take::<i32>(600);
        assert_eq!(
            (again.as_ptr() as usize, again.len(), again[0]),
            (at, 600, 7)
        );
        // Past the bound, not kept.
        give(vec![0i64; LARGEST_KEPT / 8 + 1]);
        assert!(i64::with_pool(|pool| pool.is_empty()));
    }
}
