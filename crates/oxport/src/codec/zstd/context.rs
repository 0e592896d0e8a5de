//! zstd's contexts and digested dictionaries, owned, over its C API; and
//! one compression and one decompression context per thread, reused by
//! every one-shot call on that thread (making a context costs more than
//! compressing or decompressing a small input).
//!
//! The C API is used directly rather than through `zstd-safe` because
//! parameters arrive as zstd's integer codes (`compression.zstd` passes
//! them through) and dictionaries are shared between contexts by
//! reference, which `zstd-safe`'s lifetimes cannot express for contexts
//! that live as long as a thread or a Python object.

use std::cell::RefCell;
use std::mem::MaybeUninit;
use std::ptr::NonNull;

use zstd_safe::zstd_sys::{self as sys, ZSTD_EndDirective, ZSTD_ResetDirective};

use super::check;
use crate::{Error, Result};

fn allocation_failed(what: &str) -> Error {
    Error::from(std::io::Error::new(
        std::io::ErrorKind::OutOfMemory,
        format!("zstd could not allocate a {what}"),
    ))
}

fn directive(parameters: bool) -> ZSTD_ResetDirective {
    if parameters {
        ZSTD_ResetDirective::ZSTD_reset_session_and_parameters
    } else {
        ZSTD_ResetDirective::ZSTD_reset_session_only
    }
}

/// zstd's view of a streaming call's buffers, from `written` and `read` on.
fn stream_buffers(
    dst: &mut [MaybeUninit<u8>],
    written: usize,
    src: &[u8],
    read: usize,
) -> (sys::ZSTD_outBuffer, sys::ZSTD_inBuffer) {
    (
        sys::ZSTD_outBuffer {
            dst: dst.as_mut_ptr().cast(),
            size: dst.len(),
            pos: written,
        },
        sys::ZSTD_inBuffer {
            src: src.as_ptr().cast(),
            size: src.len(),
            pos: read,
        },
    )
}

/// A compression context. `attached`: a dictionary was given since the
/// last reset of the parameters.
pub(crate) struct CCtx(NonNull<sys::ZSTD_CCtx>, bool);

// SAFETY: a context is used by one thread at a time (`&mut self`), and
// zstd contexts hold no thread affinity.
unsafe impl Send for CCtx {}

impl CCtx {
    pub(crate) fn new() -> Result<Self> {
        // SAFETY: no arguments; null means no memory.
        NonNull::new(unsafe { sys::ZSTD_createCCtx() })
            .map(|ptr| CCtx(ptr, false))
            .ok_or_else(|| allocation_failed("compression context"))
    }

    fn ptr(&mut self) -> *mut sys::ZSTD_CCtx {
        self.0.as_ptr()
    }

    /// Forgets the frame in progress and, with `parameters`, every
    /// parameter and dictionary reference.
    pub(crate) fn reset(&mut self, parameters: bool) {
        // SAFETY: a live context. Resetting between frames never fails.
        unsafe { sys::ZSTD_CCtx_reset(self.ptr(), directive(parameters)) };
        self.1 &= !parameters;
    }

    pub(crate) fn set_parameter(
        &mut self,
        parameter: sys::ZSTD_cParameter,
        value: i32,
    ) -> std::result::Result<(), usize> {
        // SAFETY: a live context; zstd checks the value.
        check(unsafe { sys::ZSTD_CCtx_setParameter(self.ptr(), parameter, value) }).map(drop)
    }

    /// How many worker threads the parameters ask for (0: none).
    fn workers(&mut self) -> i32 {
        let mut value = 0;
        // SAFETY: a live context and a valid parameter.
        unsafe {
            sys::ZSTD_CCtx_getParameter(
                self.ptr(),
                sys::ZSTD_cParameter::ZSTD_c_nbWorkers,
                &mut value,
            )
        };
        value
    }

    /// `None`: unknown (the frame header then records no size).
    pub(crate) fn set_pledged_size(&mut self, size: Option<u64>) -> std::result::Result<(), usize> {
        let size = size.unwrap_or(super::frames::CONTENTSIZE_UNKNOWN);
        // SAFETY: a live context.
        check(unsafe { sys::ZSTD_CCtx_setPledgedSrcSize(self.ptr(), size) }).map(drop)
    }

    /// Copies `content` into the context as the dictionary of the next
    /// frames.
    pub(crate) fn load_dictionary(&mut self, content: &[u8]) -> std::result::Result<(), usize> {
        self.1 = true;
        // SAFETY: zstd copies the bytes before returning.
        check(unsafe {
            sys::ZSTD_CCtx_loadDictionary(self.ptr(), content.as_ptr().cast(), content.len())
        })
        .map(drop)
    }

    /// # Safety
    ///
    /// `cdict` must outlive its use: until the context is reset with its
    /// parameters, or dropped.
    pub(crate) unsafe fn ref_cdict(&mut self, cdict: &CDict) -> std::result::Result<(), usize> {
        self.1 = true;
        // SAFETY: both live; the caller keeps the dictionary alive.
        check(unsafe { sys::ZSTD_CCtx_refCDict(self.ptr(), cdict.0.as_ptr()) }).map(drop)
    }

    /// # Safety
    ///
    /// `prefix` must outlive the next frame.
    pub(crate) unsafe fn ref_prefix(&mut self, prefix: &[u8]) -> std::result::Result<(), usize> {
        self.1 = true;
        // SAFETY: the caller keeps the bytes alive.
        check(unsafe { sys::ZSTD_CCtx_refPrefix(self.ptr(), prefix.as_ptr().cast(), prefix.len()) })
            .map(drop)
    }

    /// One whole frame of `src` into `dst`; the compressed size.
    pub(crate) fn compress2(
        &mut self,
        dst: &mut [MaybeUninit<u8>],
        src: &[u8],
    ) -> std::result::Result<usize, usize> {
        // SAFETY: both buffers are valid for their lengths; zstd writes at
        // most `dst.len()` bytes.
        check(unsafe {
            sys::ZSTD_compress2(
                self.ptr(),
                dst.as_mut_ptr().cast(),
                dst.len(),
                src.as_ptr().cast(),
                src.len(),
            )
        })
    }

    /// Compresses from `src[*read..]` into `dst[*written..]`, advancing both;
    /// zstd's hint of what remains to flush.
    pub(crate) fn compress_stream(
        &mut self,
        dst: &mut [MaybeUninit<u8>],
        written: &mut usize,
        src: &[u8],
        read: &mut usize,
        directive: ZSTD_EndDirective,
    ) -> std::result::Result<usize, usize> {
        let (mut output, mut input) = stream_buffers(dst, *written, src, *read);
        // SAFETY: the buffers describe valid memory; zstd only advances `pos`.
        let result = check(unsafe {
            sys::ZSTD_compressStream2(self.ptr(), &mut output, &mut input, directive)
        });
        *written = output.pos;
        *read = input.pos;
        result
    }
}

impl Drop for CCtx {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { sys::ZSTD_freeCCtx(self.ptr()) };
    }
}

/// A decompression context, as [`CCtx`].
pub(crate) struct DCtx(NonNull<sys::ZSTD_DCtx>, bool);

// SAFETY: as for `CCtx`.
unsafe impl Send for DCtx {}

impl DCtx {
    pub(crate) fn new() -> Result<Self> {
        // SAFETY: no arguments; null means no memory.
        NonNull::new(unsafe { sys::ZSTD_createDCtx() })
            .map(|ptr| DCtx(ptr, false))
            .ok_or_else(|| allocation_failed("decompression context"))
    }

    fn ptr(&mut self) -> *mut sys::ZSTD_DCtx {
        self.0.as_ptr()
    }

    /// See [`CCtx::reset`].
    pub(crate) fn reset(&mut self, parameters: bool) {
        // SAFETY: a live context.
        unsafe { sys::ZSTD_DCtx_reset(self.ptr(), directive(parameters)) };
        self.1 &= !parameters;
    }

    pub(crate) fn set_parameter(
        &mut self,
        parameter: sys::ZSTD_dParameter,
        value: i32,
    ) -> std::result::Result<(), usize> {
        // SAFETY: a live context; zstd checks the value.
        check(unsafe { sys::ZSTD_DCtx_setParameter(self.ptr(), parameter, value) }).map(drop)
    }

    pub(crate) fn load_dictionary(&mut self, content: &[u8]) -> std::result::Result<(), usize> {
        self.1 = true;
        // SAFETY: zstd copies the bytes before returning.
        check(unsafe {
            sys::ZSTD_DCtx_loadDictionary(self.ptr(), content.as_ptr().cast(), content.len())
        })
        .map(drop)
    }

    /// # Safety
    ///
    /// As [`CCtx::ref_cdict`].
    pub(crate) unsafe fn ref_ddict(&mut self, ddict: &DDict) -> std::result::Result<(), usize> {
        self.1 = true;
        // SAFETY: both live; the caller keeps the dictionary alive.
        check(unsafe { sys::ZSTD_DCtx_refDDict(self.ptr(), ddict.0.as_ptr()) }).map(drop)
    }

    /// # Safety
    ///
    /// As [`CCtx::ref_prefix`].
    pub(crate) unsafe fn ref_prefix(&mut self, prefix: &[u8]) -> std::result::Result<(), usize> {
        self.1 = true;
        // SAFETY: the caller keeps the bytes alive.
        check(unsafe { sys::ZSTD_DCtx_refPrefix(self.ptr(), prefix.as_ptr().cast(), prefix.len()) })
            .map(drop)
    }

    /// Decompresses whole frames of `src` into `dst`; the size written.
    pub(crate) fn decompress(
        &mut self,
        dst: &mut [MaybeUninit<u8>],
        src: &[u8],
    ) -> std::result::Result<usize, usize> {
        // SAFETY: both buffers are valid for their lengths; zstd writes at
        // most `dst.len()` bytes.
        check(unsafe {
            sys::ZSTD_decompressDCtx(
                self.ptr(),
                dst.as_mut_ptr().cast(),
                dst.len(),
                src.as_ptr().cast(),
                src.len(),
            )
        })
    }

    /// Decompresses from `src[*read..]` into `dst[*written..]`, advancing
    /// both; 0 when a frame is complete.
    pub(crate) fn decompress_stream(
        &mut self,
        dst: &mut [MaybeUninit<u8>],
        written: &mut usize,
        src: &[u8],
        read: &mut usize,
    ) -> std::result::Result<usize, usize> {
        let (mut output, mut input) = stream_buffers(dst, *written, src, *read);
        // SAFETY: the buffers describe valid memory; zstd only advances `pos`.
        let result =
            check(unsafe { sys::ZSTD_decompressStream(self.ptr(), &mut output, &mut input) });
        *written = output.pos;
        *read = input.pos;
        result
    }
}

impl Drop for DCtx {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { sys::ZSTD_freeDCtx(self.ptr()) };
    }
}

/// A dictionary digested for compression at one level.
pub(crate) struct CDict(NonNull<sys::ZSTD_CDict>);

// SAFETY: zstd only reads a digested dictionary once it is made.
unsafe impl Send for CDict {}
unsafe impl Sync for CDict {}

impl CDict {
    pub(crate) fn new(content: &[u8], level: i32) -> Result<Self> {
        // SAFETY: zstd copies the content.
        let ptr = unsafe { sys::ZSTD_createCDict(content.as_ptr().cast(), content.len(), level) };
        NonNull::new(ptr).map(CDict).ok_or_else(|| {
            Error::invalid(
                "Failed to create a ZSTD_CDict instance from Zstandard dictionary content.",
            )
        })
    }
}

impl Drop for CDict {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { sys::ZSTD_freeCDict(self.0.as_ptr()) };
    }
}

/// A dictionary digested for decompression.
pub(crate) struct DDict(NonNull<sys::ZSTD_DDict>);

// SAFETY: as for `CDict`.
unsafe impl Send for DDict {}
unsafe impl Sync for DDict {}

impl DDict {
    pub(crate) fn new(content: &[u8]) -> Result<Self> {
        // SAFETY: zstd copies the content.
        let ptr = unsafe { sys::ZSTD_createDDict(content.as_ptr().cast(), content.len()) };
        NonNull::new(ptr).map(DDict).ok_or_else(|| {
            Error::invalid(
                "Failed to create a ZSTD_DDict instance from Zstandard dictionary content.",
            )
        })
    }
}

impl Drop for DDict {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { sys::ZSTD_freeDDict(self.0.as_ptr()) };
    }
}

thread_local! {
    static COMPRESSOR: RefCell<Option<CCtx>> = const { RefCell::new(None) };
    static DECOMPRESSOR: RefCell<Option<DCtx>> = const { RefCell::new(None) };
}

fn busy() -> Error {
    Error::Internal("a thread's zstd context was asked for while in use".into())
}

/// Runs `work` with this thread's compression context at zstd's defaults.
/// When `work` gave it a dictionary it is reset again afterwards, so that no
/// reference to a caller's dictionary outlives the call.
pub(crate) fn with_compressor<R>(work: impl FnOnce(&mut CCtx) -> Result<R>) -> Result<R> {
    COMPRESSOR.with(|cell| {
        let mut slot = cell.try_borrow_mut().map_err(|_| busy())?;
        if slot.is_none() {
            *slot = Some(CCtx::new()?);
        }
        let context = slot.as_mut().expect("made above");
        context.reset(true);
        let result = work(context);
        if context.workers() > 0 {
            // The context now owns a pool of worker threads. Freed here, not
            // when this thread ends: Windows destroys thread-locals under its
            // loader lock, which those threads need to end, and joining them
            // there never returns.
            *slot = None;
        } else if context.1 {
            context.reset(true);
        }
        result
    })
}

/// Runs `work` with this thread's decompression context at zstd's
/// defaults, reset again afterwards (see [`with_compressor`]).
pub(crate) fn with_decompressor<R>(work: impl FnOnce(&mut DCtx) -> Result<R>) -> Result<R> {
    DECOMPRESSOR.with(|cell| {
        let mut slot = cell.try_borrow_mut().map_err(|_| busy())?;
        if slot.is_none() {
            *slot = Some(DCtx::new()?);
        }
        let context = slot.as_mut().expect("made above");
        context.reset(true);
        let result = work(context);
        if context.1 {
            context.reset(true);
        }
        result
    })
}
