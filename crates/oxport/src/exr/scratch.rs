//! Scratch buffers reused across chunks on each thread: a chunk's
//! intermediate bytes (filtered, decompressed, packed) need memory the size
//! of the chunk, and allocating and zeroing it for every chunk costs as
//! much as a fast codec's work.

use std::cell::RefCell;

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
    POOL.with(|pool| pool.borrow_mut().push(buffer));
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
}
