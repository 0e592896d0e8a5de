//! The ordered parallel pipeline under every reader and writer, and the one
//! thread policy of the library.
//!
//! Writers: chunks go in, byte blocks come out in chunk order ([`Pipeline::run`]).
//! Readers: blocks go in, decoded values come out in block order
//! ([`Pipeline::stream`], or [`Pipeline::map`] when every value is kept).
//! Work runs on a rayon pool while the calling thread hands finished results,
//! in order, to a sink (a file, an output buffer). At most
//! [`Pipeline::in_flight`] results exist at once, so memory is bounded by
//! that many blocks whatever the size of the input or output.
//!
//! Threads mean the same everywhere: `None` is one per core, `Some(0)` is an
//! error naming the argument. There is one pool per thread count, started
//! the first time it is asked for and kept for the life of the process, so a
//! call costs no thread start-up and many calls share their threads.

// The one place rayon is driven from (clippy.toml forbids it elsewhere).
#![allow(clippy::disallowed_methods)]

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, mpsc};

use rayon::prelude::*;

use crate::{Error, Result};

/// The thread count `threads` asks for: `None` is one per core; `0` is an
/// error naming the argument `threads`.
pub fn thread_count(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(0) => Err(Error::invalid(
            "threads is 0: give at least 1, or leave it unset for one per core",
        )),
        Some(n) => Ok(n),
        None => Ok(cores()),
    }
}

/// The number of cores, asked once: the answer takes system calls (the
/// affinity mask, cgroup quotas) that cost more than a small call's work.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The pool of `threads` threads, started on first use and shared by every
/// caller after that.
fn shared_pool(threads: usize) -> Result<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = crate::sync::lock(POOLS.get_or_init(Mutex::default));
    if let Some(pool) = pools.get(&threads) {
        return Ok(Arc::clone(pool));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("oxport-{threads}-{i}"))
        .build()
        .map_err(|e| {
            // The system refused threads (a limit on processes, memory): not the caller's fault.
            Error::from(std::io::Error::other(format!(
                "cannot start {threads} threads: {e}"
            )))
        })?;
    let pool = Arc::new(pool);
    pools.insert(threads, Arc::clone(&pool));
    Ok(pool)
}

/// The most work one task is given, in bytes read or written: past it,
/// bigger tasks save nothing and share out less evenly.
pub const TASK_BYTES: usize = 256 << 10;

/// The least work one task is given, in bytes read or written: handing work
/// to another thread and its result back costs a few microseconds (two
/// thread wake-ups), as much as a few kilobytes of work, so less than this
/// runs on the thread that has it.
pub const MIN_TASK_BYTES: usize = 64 << 10;

/// A pool of threads and the bound on results in flight.
#[derive(Clone, Debug)]
pub struct Pipeline {
    pool: Arc<rayon::ThreadPool>,
    /// Tasks (of `batch` chunks each) handed out and not yet sunk, at most.
    tasks: usize,
    batch: usize,
}

impl Pipeline {
    /// A pipeline on `threads` threads (`None`: one per core; `0` is an
    /// error) with `4 * threads` results in flight: enough to keep every
    /// thread busy while the sink waits on a slow block.
    pub fn new(threads: Option<usize>) -> Result<Self> {
        let threads = thread_count(threads)?;
        Ok(Pipeline {
            pool: shared_pool(threads)?,
            tasks: 4 * threads,
            batch: 1,
        })
    }

    /// The bytes of work one task is given when `total` bytes are shared
    /// out: a quarter of each thread's share, so that a thread that finishes
    /// early finds more, within [`MIN_TASK_BYTES`] and [`TASK_BYTES`]. The
    /// one rule for the size of a task, under [`Pipeline::grouping`],
    /// [`Pipeline::tasks`] and the data-parallel loops.
    pub fn task_bytes(&self, total: usize) -> usize {
        (total / (4 * self.threads())).clamp(MIN_TASK_BYTES, TASK_BYTES)
    }

    /// The same pipeline handing each thread `count` chunks of `bytes`
    /// bytes together, in tasks of [`Pipeline::task_bytes`].
    pub fn grouping(mut self, count: usize, bytes: usize) -> Self {
        let bytes = bytes.max(1);
        let per_task = self.task_bytes(count.saturating_mul(bytes)) / bytes;
        self.batch = per_task.clamp(1, count.max(1));
        self
    }

    /// Consecutive items of `weights` (bytes of work each) grouped into
    /// tasks of [`Pipeline::task_bytes`]: [`Pipeline::grouping`] for items of
    /// uneven size. Every item is in one range, in order.
    pub fn tasks(&self, weights: &[usize]) -> Vec<Range<usize>> {
        let size = self.task_bytes(weights.iter().fold(0, |a, &w| a.saturating_add(w)));
        let mut tasks = Vec::new();
        let (mut start, mut weight) = (0, 0usize);
        for (i, &w) in weights.iter().enumerate() {
            weight = weight.saturating_add(w);
            if weight >= size {
                tasks.push(start..i + 1);
                (start, weight) = (i + 1, 0);
            }
        }
        if start < weights.len() {
            tasks.push(start..weights.len());
        }
        tasks
    }

    /// Items per task when `len` items of `bytes` each are shared out, or
    /// `None` when they make one task (or there is one thread): then the
    /// calling thread does all the work.
    fn piece(&self, len: usize, bytes: usize) -> Option<usize> {
        let bytes = bytes.max(1);
        let piece = (self.task_bytes(len.saturating_mul(bytes)) / bytes).max(1);
        (self.threads() > 1 && len > piece).then_some(piece)
    }

    /// `work(i, unit)` on every unit of `unit` items of `items` (rows of
    /// an image, or single colors; the last unit may be shorter), in place,
    /// in parallel: tasks are worth [`Pipeline::task_bytes`] at `bytes` per
    /// unit (the bytes a unit's work reads and writes).
    pub fn for_each_mut<T: Send>(
        &self,
        items: &mut [T],
        unit: usize,
        bytes: usize,
        work: impl Fn(usize, &mut [T]) + Sync,
    ) {
        let unit = unit.max(1);
        match self.piece(items.len().div_ceil(unit), bytes) {
            None => items
                .chunks_mut(unit)
                .enumerate()
                .for_each(|(i, u)| work(i, u)),
            Some(piece) => self.pool.install(|| {
                items
                    .par_chunks_mut(unit)
                    .enumerate()
                    .with_min_len(piece)
                    .for_each(|(i, u)| work(i, u));
            }),
        }
    }

    /// `work(i)` for every `i` in `0..len`, in parallel, the results in
    /// order; tasks are worth [`Pipeline::task_bytes`] at `bytes` per item.
    pub fn map_indices<R: Send>(
        &self,
        len: usize,
        bytes: usize,
        work: impl Fn(usize) -> R + Sync,
    ) -> Vec<R> {
        match self.piece(len, bytes) {
            None => (0..len).map(work).collect(),
            Some(piece) => self.pool.install(|| {
                (0..len)
                    .into_par_iter()
                    .with_min_len(piece)
                    .map(&work)
                    .collect()
            }),
        }
    }

    /// `work(range)` for consecutive ranges covering `0..len`, in parallel,
    /// the results in order: for work that keeps state across the items of
    /// a task. Ranges are worth [`Pipeline::task_bytes`] at `bytes` per item.
    pub fn map_ranges<R: Send>(
        &self,
        len: usize,
        bytes: usize,
        work: impl Fn(Range<usize>) -> R + Sync,
    ) -> Vec<R> {
        match self.piece(len, bytes) {
            None => vec![work(0..len)],
            Some(piece) => self.pool.install(|| {
                (0..len.div_ceil(piece))
                    .into_par_iter()
                    .map(|k| work(k * piece..len.min((k + 1) * piece)))
                    .collect()
            }),
        }
    }

    /// `a()` and `b()` side by side on the pool (one after the other with
    /// one thread): for two pieces of work with serial parts of their own.
    pub fn join<A: Send, B: Send>(
        &self,
        a: impl FnOnce() -> A + Send,
        b: impl FnOnce() -> B + Send,
    ) -> (A, B) {
        match self.threads() {
            1 => (a(), b()),
            _ => self.pool.install(|| rayon::join(a, b)),
        }
    }

    /// Whether `test(i)` holds for every `i` in `0..len`, tested in
    /// parallel (stopping at the first that fails) as [`Pipeline::map_indices`].
    pub fn all(&self, len: usize, bytes: usize, test: impl Fn(usize) -> bool + Sync) -> bool {
        match self.piece(len, bytes) {
            None => (0..len).all(test),
            Some(piece) => self
                .pool
                .install(|| (0..len).into_par_iter().with_min_len(piece).all(&test)),
        }
    }

    /// Sorts `items` (not stable) by `compare`, in parallel when they are
    /// worth more than one task at `bytes` per item.
    pub fn sort_unstable_by<T: Send>(
        &self,
        items: &mut [T],
        bytes: usize,
        compare: impl Fn(&T, &T) -> std::cmp::Ordering + Sync,
    ) {
        match self.piece(items.len(), bytes) {
            None => items.sort_unstable_by(compare),
            Some(_) => self.pool.install(|| items.par_sort_unstable_by(&compare)),
        }
    }

    /// The number of chunks in one task (1 unless [`Pipeline::grouping`] said otherwise).
    pub fn batch(&self) -> usize {
        self.batch
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// The most results that exist at once in [`Pipeline::stream`] and
    /// [`Pipeline::run`]: tasks in flight times chunks per task.
    pub fn in_flight(&self) -> usize {
        self.tasks * self.batch
    }

    /// `work` over every item, in parallel, the results in item order: for
    /// readers that keep every decoded block. One thread, or one item, runs
    /// on the calling thread.
    pub fn map<T: Send, R: Send>(&self, items: Vec<T>, work: impl Fn(T) -> R + Sync) -> Vec<R> {
        if self.threads() == 1 || items.len() <= 1 {
            return items.into_iter().map(work).collect();
        }
        self.pool
            .install(|| items.into_par_iter().map(&work).collect())
    }

    /// Runs `work` on every chunk in parallel and passes the results to
    /// `sink` in the order of `chunks`, with at most [`Pipeline::in_flight`]
    /// results alive at once.
    ///
    /// The first error, from `work` or `sink`, stops the run: chunks not yet
    /// started are skipped and the error is returned. A panic in `work` is
    /// propagated to the caller. Called from one of the pipeline's own
    /// threads (a nested call), it runs in order on that thread instead of
    /// waiting on the threads it would occupy.
    pub fn stream<C, R, W, S>(
        &self,
        chunks: impl IntoIterator<Item = C>,
        work: W,
        mut sink: S,
    ) -> Result<()>
    where
        C: Send,
        R: Send,
        W: Fn(C) -> Result<R> + Sync,
        S: FnMut(R) -> Result<()>,
    {
        if self.pool.current_thread_index().is_some() {
            return chunks.into_iter().try_for_each(|c| sink(work(c)?));
        }
        let cancelled = AtomicBool::new(false);
        let (work, cancelled) = (&work, &cancelled);
        // A task's results, shorter than its chunks after an error or when the run had failed.
        type Message<R> = (usize, std::thread::Result<Vec<Result<R>>>);
        // The closure runs on this thread, outside the pool, so blocking on the
        // channel never takes a thread away from the work.
        self.pool.in_place_scope(|scope| -> Result<()> {
            let (sender, receiver) = mpsc::channel::<Message<R>>();
            let mut chunks = chunks.into_iter().peekable();
            let mut finished = BTreeMap::new();
            let (mut started, mut done) = (0usize, 0usize);
            let result = 'run: loop {
                while started - done < self.tasks && chunks.peek().is_some() {
                    let task: Vec<C> = chunks.by_ref().take(self.batch).collect();
                    let sender = sender.clone();
                    let index = started;
                    scope.spawn(move |_| {
                        let results = catch_unwind(AssertUnwindSafe(|| {
                            let mut results = Vec::with_capacity(task.len());
                            for chunk in task {
                                if cancelled.load(Ordering::Relaxed) {
                                    break;
                                }
                                let result = work(chunk);
                                let failed = result.is_err();
                                results.push(result);
                                if failed {
                                    break;
                                }
                            }
                            results
                        }));
                        // The receiver only goes away after an error; nothing is lost.
                        let _ = sender.send((index, results));
                    });
                    started += 1;
                }
                if done == started {
                    break Ok(());
                }
                let results = loop {
                    if let Some(results) = finished.remove(&done) {
                        break results;
                    }
                    let (index, results) = receiver
                        .recv()
                        .expect("a sender is held by this loop, so the channel stays open");
                    finished.insert(index, results);
                };
                let results = match results {
                    Ok(results) => results,
                    Err(panic) => {
                        cancelled.store(true, Ordering::Relaxed);
                        resume_unwind(panic)
                    }
                };
                // A task stops short only at an error, or once the run has
                // failed, and then this loop has already stopped.
                for result in results {
                    if let Err(error) = result.and_then(&mut sink) {
                        break 'run Err(error);
                    }
                }
                done += 1;
            };
            if result.is_err() {
                cancelled.store(true, Ordering::Relaxed);
            }
            result
        })
    }

    /// The writers' pipeline: encodes every chunk into a block with `encode`
    /// (in parallel, into an empty buffer) and passes the blocks to `sink` in
    /// the order of `chunks`, as [`Pipeline::stream`] does. Block buffers are
    /// recycled, so a long run allocates only for its first blocks.
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
        let spare = RefCell::new(Vec::<Vec<u8>>::new());
        let chunks = chunks
            .into_iter()
            .map(|chunk| (chunk, spare.borrow_mut().pop().unwrap_or_default()));
        self.stream(
            chunks,
            |(chunk, mut block)| {
                block.clear();
                encode(chunk, &mut block).map(|()| block)
            },
            |block| {
                sink(&block)?;
                spare.borrow_mut().push(block);
                Ok(())
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Uneven work so that results finish out of order.
    fn spin(i: u32) {
        let mut x = 0u64;
        for k in 0..(i * 7919) % 2000 {
            x = x.wrapping_add(std::hint::black_box(u64::from(k)));
        }
        std::hint::black_box(x);
    }

    #[test]
    fn join_gives_both_results_on_any_thread_count() {
        for threads in [1, 2, 4] {
            let pipeline = Pipeline::new(Some(threads)).unwrap();
            let (a, b) = pipeline.join(|| (0..100u64).sum::<u64>(), || "done".to_string());
            assert_eq!((a, b.as_str()), (4950, "done"));
        }
    }

    #[test]
    fn blocks_arrive_in_order_whatever_the_thread_count() {
        for threads in [1, 2, 8] {
            let mut out = Vec::new();
            Pipeline::new(Some(threads))
                .unwrap()
                .run(
                    0..1000u32,
                    |i, block| {
                        spin(i);
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
    fn streamed_and_mapped_values_keep_their_order() {
        for threads in [1, 2, 8] {
            let pipeline = Pipeline::new(Some(threads)).unwrap();
            let mut seen = Vec::new();
            pipeline
                .stream(
                    0..500u32,
                    |i| {
                        spin(i);
                        Ok(u64::from(i) * 3)
                    },
                    |v| {
                        seen.push(v);
                        Ok(())
                    },
                )
                .unwrap();
            assert_eq!(seen, (0..500).map(|i| i * 3).collect::<Vec<u64>>());
            let mapped = pipeline.map((0..500u32).collect(), |i| {
                spin(i);
                i + 1
            });
            assert_eq!(mapped, (1..=500).collect::<Vec<u32>>());
        }
    }

    #[test]
    fn a_task_is_a_quarter_of_a_threads_share_within_its_bounds() {
        let two = Pipeline::new(Some(2)).unwrap();
        assert_eq!(two.task_bytes(0), MIN_TASK_BYTES);
        assert_eq!(two.task_bytes(8 * MIN_TASK_BYTES), MIN_TASK_BYTES);
        assert_eq!(two.task_bytes(8 * 100_000), 100_000);
        assert_eq!(two.task_bytes(usize::MAX), TASK_BYTES);
        // Uneven items: every one in one task, in order, each task (but the
        // last) holding at least a task's bytes.
        let weights: Vec<usize> = (0..5000).map(|i| (i * 7919) % 3000).collect();
        let tasks = two.tasks(&weights);
        let size = two.task_bytes(weights.iter().sum());
        assert!(tasks.len() > 8);
        assert_eq!(tasks.first().unwrap().start, 0);
        assert_eq!(tasks.last().unwrap().end, weights.len());
        for pair in tasks.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
            assert!(weights[pair[0].clone()].iter().sum::<usize>() >= size);
        }
        assert_eq!(two.tasks(&[1, 2, 3]), vec![0..3]);
        assert_eq!(two.tasks(&[]), Vec::<Range<usize>>::new());
    }

    #[test]
    fn data_parallel_loops_cover_every_item_in_order_whatever_the_thread_count() {
        let len = 300_000;
        let expected: Vec<u64> = (0..len as u64).map(|i| i * i % 1009).collect();
        for threads in [1, 2, 3, 8] {
            let pipeline = Pipeline::new(Some(threads)).unwrap();
            // By index.
            let mapped = pipeline.map_indices(len, 8, |i| (i as u64) * (i as u64) % 1009);
            assert_eq!(mapped, expected, "{threads} threads");
            // By range: consecutive, covering, and more than one on several threads.
            let ranges = pipeline.map_ranges(len, 8, |r| r);
            assert_eq!(ranges.first().unwrap().start, 0);
            assert_eq!(ranges.last().unwrap().end, len);
            assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
            assert_eq!(ranges.len() > 1, threads > 1, "{threads} threads");
            // In place, by units of 7 (the last one shorter), each told its index.
            let mut items = vec![0u64; len];
            pipeline.for_each_mut(&mut items, 7, 56, |unit, values| {
                for (k, v) in values.iter_mut().enumerate() {
                    let i = (unit * 7 + k) as u64;
                    *v = i * i % 1009;
                }
            });
            assert_eq!(items, expected, "{threads} threads");
            // All, and one that fails near the end.
            assert!(pipeline.all(len, 8, |i| mapped[i] < 1009));
            assert!(!pipeline.all(len, 8, |i| i != len - 3));
            // Sorted as the standard library sorts.
            let mut sorted = expected.clone();
            pipeline.sort_unstable_by(&mut sorted, 8, Ord::cmp);
            let mut reference = expected.clone();
            reference.sort_unstable();
            assert_eq!(sorted, reference, "{threads} threads");
        }
        // Below a task's worth, the calling thread does the work.
        let pipeline = Pipeline::new(Some(4)).unwrap();
        let caller = std::thread::current().id();
        let small = MIN_TASK_BYTES / 8;
        assert!(
            pipeline
                .map_indices(small, 8, |_| std::thread::current().id())
                .iter()
                .all(|&id| id == caller)
        );
        let big = pipeline.map_indices(64 * small, 8, |_| std::thread::current().id());
        assert!(big.iter().all(|&id| id != caller));
    }

    #[test]
    fn small_chunks_go_in_groups_and_keep_their_order() {
        let pipeline = Pipeline::new(Some(2)).unwrap();
        assert_eq!(pipeline.clone().grouping(1000, TASK_BYTES).batch(), 1);
        assert_eq!(pipeline.clone().grouping(1000, 1000).batch(), 125);
        // Less than the smallest task is one task.
        assert_eq!(pipeline.clone().grouping(24, 1000).batch(), 24);
        assert_eq!(pipeline.clone().grouping(3, 1).batch(), 3);
        assert_eq!(pipeline.clone().grouping(0, 1).batch(), 1);
        for bytes in [1 << 20, 50_000, 1000, 1] {
            let grouped = pipeline.clone().grouping(1000, bytes);
            let mut out = Vec::new();
            grouped
                .run(
                    0..1000u32,
                    |i, block| {
                        spin(i);
                        block.extend_from_slice(&i.to_le_bytes());
                        Ok(())
                    },
                    |block| {
                        out.push(u32::from_le_bytes(block.try_into().unwrap()));
                        Ok(())
                    },
                )
                .unwrap();
            assert_eq!(
                out,
                (0..1000).collect::<Vec<u32>>(),
                "batch {}",
                grouped.batch()
            );
            // An error inside a group: everything before it reaches the sink, nothing after.
            let mut seen = Vec::new();
            let result = grouped.stream(
                0..1000u32,
                |i| {
                    if i == 517 {
                        Err(Error::invalid("chunk 517"))
                    } else {
                        Ok(i)
                    }
                },
                |i| {
                    seen.push(i);
                    Ok(())
                },
            );
            assert!(result.is_err());
            assert_eq!(
                seen,
                (0..517).collect::<Vec<u32>>(),
                "batch {}",
                grouped.batch()
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
    fn never_more_results_than_in_flight() {
        for bytes in [TASK_BYTES, 10_000] {
            let live = AtomicUsize::new(0);
            let peak = AtomicUsize::new(0);
            let pipeline = Pipeline::new(Some(2)).unwrap().grouping(200, bytes);
            pipeline
                .stream(
                    0..200u32,
                    |_| {
                        let now = live.fetch_add(1, Ordering::SeqCst) + 1;
                        peak.fetch_max(now, Ordering::SeqCst);
                        Ok(())
                    },
                    |()| {
                        live.fetch_sub(1, Ordering::SeqCst);
                        Ok(())
                    },
                )
                .unwrap();
            assert!(peak.load(Ordering::SeqCst) <= pipeline.in_flight());
            assert!(peak.load(Ordering::SeqCst) >= 1);
        }
    }

    #[test]
    #[should_panic(expected = "boom")]
    fn a_panic_in_the_work_reaches_the_caller() {
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

    #[test]
    fn zero_threads_is_an_error_naming_the_argument() {
        let error = Pipeline::new(Some(0)).unwrap_err();
        assert!(matches!(error, Error::InvalidArgument(_)));
        assert!(error.to_string().contains("threads"), "{error}");
        assert!(thread_count(None).unwrap() >= 1);
    }

    #[test]
    fn one_pool_per_thread_count_is_shared_between_calls() {
        let a = Pipeline::new(Some(3)).unwrap();
        let b = Pipeline::new(Some(3)).unwrap();
        assert!(Arc::ptr_eq(&a.pool, &b.pool));
        assert!(!Arc::ptr_eq(&a.pool, &Pipeline::new(Some(4)).unwrap().pool));
    }

    #[test]
    fn a_nested_call_on_a_one_thread_pool_does_not_wait_on_itself() {
        let pipeline = Pipeline::new(Some(1)).unwrap();
        let total = pipeline.pool.install(|| {
            let mut total = 0;
            pipeline
                .stream(0..10u32, Ok, |v| {
                    total += v;
                    Ok(())
                })
                .map(|()| total)
        });
        assert_eq!(total.unwrap(), 45);
    }
}
