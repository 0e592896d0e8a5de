//! Work handed over item by item (the streaming entries that a caller feeds
//! as it produces the items, as Blender's Python gathers meshes): a thread of
//! the feed's own takes the items in order from a bounded channel and runs
//! them, usually through [`Pipeline::stream`](crate::pipeline::Pipeline::stream);
//! the caller waits only for room, and gets the thread's result when it
//! finishes. A feed dropped unfinished closes its channel and waits for its
//! thread, which sees the channel end.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use crate::{Error, Result};

/// A thread that takes items of type `I` in order and gives an `R` at the end.
pub(crate) struct Feed<I, R> {
    items: Option<SyncSender<I>>,
    worker: Option<JoinHandle<Result<R>>>,
}

impl<I: Send + 'static, R: Send + 'static> Feed<I, R> {
    /// Starts the thread `name`, which runs `run` on the items as they
    /// come; at most `room` items wait for it.
    pub(crate) fn start(
        name: &str,
        room: usize,
        run: impl FnOnce(Receiver<I>) -> Result<R> + Send + 'static,
    ) -> Result<Self> {
        let (items, received) = sync_channel::<I>(room);
        let worker = spawn(name, move || run(received))?;
        Ok(Feed {
            items: Some(items),
            worker: Some(worker),
        })
    }

    /// Hands over one item; waits while `room` items wait. When the thread
    /// has stopped (at an error), that error.
    pub(crate) fn send(&mut self, item: I) -> Result<()> {
        if self.items.is_none() {
            return Err(Error::invalid("the stream is finished"));
        }
        if !self.hand_over(item) {
            // The thread stopped: its error is the answer.
            return Err(self
                .finish()
                .err()
                .unwrap_or_else(|| Error::Internal("the stream stopped without an error".into())));
        }
        Ok(())
    }

    /// Hands over one item as [`Feed::send`] does; `false` when the thread
    /// has stopped or the feed is finished, [`Feed::finish`] then says why.
    pub(crate) fn hand_over(&mut self, item: I) -> bool {
        self.items
            .as_ref()
            .is_some_and(|items| items.send(item).is_ok())
    }

    /// Closes the channel and waits for the thread's result (a panic in it
    /// is resumed here). Once only: later calls are errors.
    pub(crate) fn finish(&mut self) -> Result<R> {
        self.items = None;
        let worker = self
            .worker
            .take()
            .ok_or_else(|| Error::invalid("the stream is finished"))?;
        match worker.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

impl<I, R> Drop for Feed<I, R> {
    fn drop(&mut self) {
        self.items = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// Starts the thread `name` running `work`, or says why it cannot.
fn spawn<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<JoinHandle<T>> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(work)
        .map_err(cannot_start)
}

/// The error of a thread the system would not start.
pub(crate) fn cannot_start(error: std::io::Error) -> Error {
    Error::from(std::io::Error::new(
        error.kind(),
        format!("cannot start a thread: {error}"),
    ))
}
