//! What a native object holds until it is closed (an OBJ writer's file, an
//! export stream): one rule for reaching it, taking it and refusing it once
//! closed, whatever thread panicked while holding it.

use std::sync::{Mutex, MutexGuard};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::to_py_err;

/// A value until it is taken; `closed` names the object in the
/// `ValueError` a use after that raises ("the writer is closed").
pub(crate) struct Open<T> {
    value: Mutex<Option<T>>,
    closed: &'static str,
}

impl<T: Send> Open<T> {
    pub(crate) fn new(value: T, closed: &'static str) -> Self {
        Open {
            value: Mutex::new(Some(value)),
            closed,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<T>> {
        // A panic elsewhere leaves the value as it was: still usable or closed.
        self.value.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value, which is closed from now on; `None` if it already was.
    pub(crate) fn take(&self) -> Option<T> {
        self.lock().take()
    }

    /// The value, or the `ValueError` of a closed object.
    pub(crate) fn take_open(&self) -> PyResult<T> {
        self.take()
            .ok_or_else(|| PyValueError::new_err(self.closed))
    }

    /// Whether the value was taken.
    pub(crate) fn is_closed(&self) -> bool {
        self.lock().is_none()
    }

    /// Puts a value (back): open again.
    pub(crate) fn put(&self, value: T) {
        *self.lock() = Some(value);
    }

    /// Runs `work` on the open value without the GIL.
    pub(crate) fn with<R: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut T) -> oxport::Result<R> + Send,
    ) -> PyResult<R> {
        py.detach(|| match self.lock().as_mut() {
            Some(value) => work(value).map_err(to_py_err),
            None => Err(PyValueError::new_err(self.closed)),
        })
    }
}
