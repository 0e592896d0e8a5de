//! Scratch buffers reused on each thread: a chunk's or a frame's
//! intermediate bytes (filtered, decompressed, packed, read) need memory the
//! size of the chunk, and allocating and zeroing it for every chunk costs as
//! much as a fast codec's work. The one cache of them for every reader and
//! writer, bounded: a thread keeps a few buffers, none past 64 MiB.

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
}
