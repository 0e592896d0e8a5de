//! libdeflate's compressors (one per level) and decompressor, one set per
//! thread, made on first use: a compressor for the high levels takes
//! hundreds of kilobytes to set up.

use std::cell::RefCell;
use std::ptr::NonNull;

use libdeflate_sys as sys;

use crate::{Error, Result};

pub(crate) struct Compressor(NonNull<sys::libdeflate_compressor>);

impl Drop for Compressor {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { sys::libdeflate_free_compressor(self.0.as_ptr()) };
    }
}

pub(crate) struct Decompressor(NonNull<sys::libdeflate_decompressor>);

impl Drop for Decompressor {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { sys::libdeflate_free_decompressor(self.0.as_ptr()) };
    }
}

const LEVEL_COUNT: usize = 13;

thread_local! {
    static COMPRESSORS: RefCell<[Option<Compressor>; LEVEL_COUNT]> = const { RefCell::new([const { None }; LEVEL_COUNT]) };
    static DECOMPRESSOR: RefCell<Option<Decompressor>> = const { RefCell::new(None) };
}

fn no_memory() -> Error {
    Error::from(std::io::Error::new(
        std::io::ErrorKind::OutOfMemory,
        "libdeflate could not allocate its state",
    ))
}

fn busy() -> Error {
    Error::Internal("a thread's libdeflate state was asked for while in use".into())
}

/// Runs `work` with this thread's compressor for `level` (checked).
pub(crate) fn with_compressor<R>(
    level: i32,
    work: impl FnOnce(*mut sys::libdeflate_compressor) -> Result<R>,
) -> Result<R> {
    super::check_level(level)?;
    COMPRESSORS.with(|cell| {
        let mut slots = cell.try_borrow_mut().map_err(|_| busy())?;
        let slot = &mut slots[level as usize];
        if slot.is_none() {
            // SAFETY: a valid level; null means no memory.
            let ptr = unsafe { sys::libdeflate_alloc_compressor(level) };
            *slot = Some(Compressor(NonNull::new(ptr).ok_or_else(no_memory)?));
        }
        work(slot.as_ref().expect("made above").0.as_ptr())
    })
}

/// Runs `work` with this thread's decompressor.
pub(crate) fn with_decompressor<R>(
    work: impl FnOnce(*mut sys::libdeflate_decompressor) -> Result<R>,
) -> Result<R> {
    DECOMPRESSOR.with(|cell| {
        let mut slot = cell.try_borrow_mut().map_err(|_| busy())?;
        if slot.is_none() {
            // SAFETY: no arguments; null means no memory.
            let ptr = unsafe { sys::libdeflate_alloc_decompressor() };
            *slot = Some(Decompressor(NonNull::new(ptr).ok_or_else(no_memory)?));
        }
        work(slot.as_ref().expect("made above").0.as_ptr())
    })
}
