//! Locks shared by threads.

use std::sync::{Mutex, MutexGuard};

/// Locks `mutex`, ignoring poisoning: every mutex of the library guards
/// data that each change leaves whole (one assignment, one insert or
/// removal), so a panic elsewhere while it was held cannot have left it
/// half-changed.
pub(crate) fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
