//! The ordered parallel pipeline under every writer.
//!
//! Chunks go in, byte blocks come out in chunk order. Blocks are encoded on a
//! rayon pool while the calling thread hands finished blocks, in order, to a
//! sink (usually a file). At most `in_flight` blocks exist at once, so the
//! memory used is bounded by `in_flight` times the block size, whatever the
//! size of the output. Block buffers are recycled, so a long run allocates
//! only for its first `in_flight` blocks.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use crate::{Error, Result};

/// A pool of encoding threads and the bound on blocks in flight.
///
/// Each pipeline owns its pool, so that the thread that writes the blocks is
/// never one of the threads that encode them (it blocks while it waits).
#[derive(Debug)]
pub struct Pipeline {
    pool: rayon::ThreadPool,
    in_flight: usize,
}

impl Pipeline {
    /// A pipeline on `threads` threads (`None`: one per core) with
    /// `4 * threads` blocks in flight: enough to keep every thread busy while
    /// the writer waits on a slow block.
    pub fn new(threads: Option<usize>) -> Result<Self> {
        let threads = threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("oxport-{i}"))
            .build()
            .map_err(|e| Error::invalid(format!("cannot start {threads} threads: {e}")))?;
        Ok(Pipeline {
            pool,
            in_flight: 4 * threads,
        })
    }

    /// The number of encoding threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `work` on the pipeline's threads (for rayon's parallel iterators).
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        self.pool.install(work)
    }

    /// The most blocks that exist at once.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// Encodes every chunk into a block with `encode` (in parallel, into an
    /// empty buffer) and passes the blocks to `sink` in the order of `chunks`.
    ///
    /// The first error, from `encode` or `sink`, stops the run: chunks not yet
    /// started are skipped and the error is returned. A panic in `encode` is
    /// propagated to the caller.
    pub fn run<C, E, S>(
        &self,
        chunks: impl IntoIterator<Item = C>,
        encode: E,
        mut sink: S,
    ) -> Result<()>
    where
        C: Send,
        E: Fn(C, &mut Vec<u8>) -> Result<()> + Sync,
        S: FnMut(&[u8]) -> Result<()>,
    {
        let cancelled = AtomicBool::new(false);
        let encode = &encode;
        let cancelled_ref = &cancelled;
        type Message = (usize, std::thread::Result<Result<Vec<u8>>>);
        // The closure runs on this thread, outside the pool, so blocking on the
        // channel never takes a worker away from encoding.
        self.pool.in_place_scope(|scope| -> Result<()> {
            let (sender, receiver) = mpsc::channel::<Message>();
            let mut chunks = chunks.into_iter();
            let mut spare: Vec<Vec<u8>> = Vec::new();
            let mut finished: BTreeMap<usize, std::thread::Result<Result<Vec<u8>>>> =
                BTreeMap::new();
            let (mut started, mut written) = (0usize, 0usize);
            let result = loop {
                while started - written < self.in_flight {
                    let Some(chunk) = chunks.next() else { break };
                    let sender = sender.clone();
                    let mut block = spare.pop().unwrap_or_default();
                    block.clear();
                    let index = started;
                    scope.spawn(move |_| {
                        let result = catch_unwind(AssertUnwindSafe(|| {
                            if cancelled_ref.load(Ordering::Relaxed) {
                                return Ok(Vec::new());
                            }
                            encode(chunk, &mut block).map(|()| block)
                        }));
                        // The receiver only goes away after an error; nothing is lost.
                        let _ = sender.send((index, result));
                    });
                    started += 1;
                }
                if written == started {
                    break Ok(());
                }
                let block = loop {
                    if let Some(block) = finished.remove(&written) {
                        break block;
                    }
                    let (index, block) = receiver
                        .recv()
                        .expect("a sender is held by this loop, so the channel stays open");
                    finished.insert(index, block);
                };
                let block = match block {
                    Ok(block) => block,
                    Err(panic) => {
                        cancelled_ref.store(true, Ordering::Relaxed);
                        resume_unwind(panic)
                    }
                };
                match block.and_then(|block| sink(&block).map(|()| block)) {
                    Ok(block) => spare.push(block),
                    Err(error) => break Err(error),
                }
                written += 1;
            };
            if result.is_err() {
                cancelled_ref.store(true, Ordering::Relaxed);
            }
            result
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_arrive_in_order_whatever_the_thread_count() {
        for threads in [1, 2, 8] {
            let mut out = Vec::new();
            Pipeline::new(Some(threads))
                .unwrap()
                .run(
                    0..1000u32,
                    |i, block| {
                        // Uneven work so that blocks finish out of order.
                        let spin = (i * 7919) % 2000;
                        let mut x = 0u64;
                        for k in 0..spin {
                            x = x.wrapping_add(std::hint::black_box(u64::from(k)));
                        }
                        std::hint::black_box(x);
                        block.extend_from_slice(format!("{i}\n").as_bytes());
                        Ok(())
                    },
                    |block| {
                        out.extend_from_slice(block);
                        Ok(())
                    },
                )
                .unwrap();
            let expected: String = (0..1000).map(|i| format!("{i}\n")).collect();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                expected,
                "{threads} threads"
            );
        }
    }

    #[test]
    fn the_first_error_stops_the_run() {
        let mut seen = 0;
        let result = Pipeline::new(Some(2)).unwrap().run(
            0..100u32,
            |i, block| {
                if i == 10 {
                    return Err(Error::invalid("chunk 10"));
                }
                block.push(b'x');
                Ok(())
            },
            |_| {
                seen += 1;
                Ok(())
            },
        );
        assert_eq!(
            result.unwrap_err().to_string(),
            "invalid argument: chunk 10"
        );
        assert_eq!(seen, 10);

        let result = Pipeline::new(Some(2)).unwrap().run(
            0..100u32,
            |_, _| Ok(()),
            |_| Err(Error::invalid("disk full")),
        );
        assert!(result.is_err());
    }

    #[test]
    fn never_more_blocks_than_in_flight() {
        use std::sync::atomic::AtomicUsize;
        let live = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let pipeline = Pipeline::new(Some(2)).unwrap();
        pipeline
            .run(
                0..200u32,
                |_, block| {
                    let now = live.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    block.push(0);
                    Ok(())
                },
                |_| {
                    live.fetch_sub(1, Ordering::SeqCst);
                    Ok(())
                },
            )
            .unwrap();
        assert!(peak.load(Ordering::SeqCst) <= pipeline.in_flight());
    }

    #[test]
    #[should_panic(expected = "boom")]
    fn a_panic_in_encode_reaches_the_caller() {
        let _ = Pipeline::new(Some(2)).unwrap().run(
            0..10u32,
            |i, _| {
                if i == 3 {
                    panic!("boom");
                }
                Ok(())
            },
            |_| Ok(()),
        );
    }
}
