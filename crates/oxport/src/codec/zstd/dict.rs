//! Dictionaries: their content and id, digested forms made once and shared,
//! and training.

use std::sync::{Mutex, OnceLock};

use zstd_safe::zstd_sys as sys;

use super::context::{CCtx, CDict, DCtx, DDict};
use crate::{Error, Result};

/// How a dictionary is given to zstd (Python's `ZstdDict.as_*` properties).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DictUse {
    /// Digested once per compression level and shared: fastest for many
    /// small inputs.
    Digested,
    /// Loaded afresh for each frame: compression parameters other than the
    /// level then adapt to the dictionary.
    Undigested,
    /// Raw content referenced for one frame, without a dictionary id.
    Prefix,
}

/// A zstd dictionary.
pub struct Dictionary {
    content: Vec<u8>,
    id: u32,
    /// Digested for compression, by level. Entries are never removed, so
    /// a reference handed to a context lives as long as the dictionary.
    cdicts: Mutex<Vec<(i32, Box<CDict>)>>,
    ddict: OnceLock<DDict>,
}

impl std::fmt::Debug for Dictionary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dictionary")
            .field("id", &self.id)
            .field("len", &self.content.len())
            .finish()
    }
}

impl Dictionary {
    /// A dictionary of `content`: zstd's format (a trained or finalized
    /// dictionary, which records an id), or with `raw` any bytes.
    pub fn new(content: Vec<u8>, raw: bool) -> Result<Self> {
        if content.len() < 8 {
            return Err(Error::invalid(
                "Zstandard dictionary content too short (must have at least eight bytes)",
            ));
        }
        let id = zstd_safe::get_dict_id_from_dict(&content).map_or(0, |id| id.get());
        if !raw && id == 0 {
            return Err(Error::invalid("invalid Zstandard dictionary"));
        }
        Ok(Dictionary {
            content,
            id,
            cdicts: Mutex::default(),
            ddict: OnceLock::new(),
        })
    }

    /// The bytes.
    pub fn content(&self) -> &[u8] {
        &self.content
    }

    /// The id recorded in the dictionary (0: none, a raw dictionary).
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Attaches the dictionary to a compression context at `level`.
    ///
    /// # Safety
    ///
    /// The context must be reset with its parameters, or dropped, before
    /// `self` is.
    pub(crate) unsafe fn attach_compressor(
        &self,
        context: &mut CCtx,
        usage: DictUse,
        level: i32,
    ) -> Result<()> {
        let result = match usage {
            DictUse::Digested => {
                let mut cdicts = crate::sync::lock(&self.cdicts);
                let index = match cdicts.iter().position(|(l, _)| *l == level) {
                    Some(index) => index,
                    None => {
                        cdicts.push((level, Box::new(CDict::new(&self.content, level)?)));
                        cdicts.len() - 1
                    }
                };
                // SAFETY: the boxed dictionary stays where it is until `self`
                // is dropped (entries are never removed), and the caller
                // resets the context before that.
                unsafe { context.ref_cdict(&cdicts[index].1) }
            }
            DictUse::Undigested => context.load_dictionary(&self.content),
            // SAFETY: the content lives as long as `self` (the caller's promise).
            DictUse::Prefix => unsafe { context.ref_prefix(&self.content) },
        };
        result.map_err(load_failed)
    }

    /// Attaches the dictionary to a decompression context.
    ///
    /// # Safety
    ///
    /// As [`Dictionary::attach_compressor`].
    pub(crate) unsafe fn attach_decompressor(
        &self,
        context: &mut DCtx,
        usage: DictUse,
    ) -> Result<()> {
        let result = match usage {
            DictUse::Digested => {
                let ddict = match self.ddict.get() {
                    Some(ddict) => ddict,
                    None => {
                        let made = DDict::new(&self.content)?;
                        self.ddict.get_or_init(|| made)
                    }
                };
                // SAFETY: `ddict` lives as long as `self`; the caller resets
                // the context before `self` is dropped.
                unsafe { context.ref_ddict(ddict) }
            }
            DictUse::Undigested => context.load_dictionary(&self.content),
            // SAFETY: as above.
            DictUse::Prefix => unsafe { context.ref_prefix(&self.content) },
        };
        result.map_err(load_failed)
    }
}

fn load_failed(code: usize) -> Error {
    Error::invalid(format!(
        "zstd: cannot load the dictionary: {}",
        zstd_safe::get_error_name(code)
    ))
}

/// Checks that `sizes` split `samples` exactly, and returns their count.
fn sample_count(samples: &[u8], sizes: &[usize]) -> Result<u32> {
    let total = sizes
        .iter()
        .try_fold(0usize, |total, &size| total.checked_add(size));
    if total != Some(samples.len()) {
        return Err(Error::invalid(
            "the sample sizes do not add up to the length of the samples",
        ));
    }
    u32::try_from(sizes.len()).map_err(|_| Error::invalid("more than 2^32 - 1 samples"))
}

fn dictionary_buffer(dict_size: usize) -> Result<Vec<u8>> {
    if dict_size == 0 || dict_size > u32::MAX as usize {
        return Err(Error::invalid(format!(
            "dict_size {dict_size} is not from 1 to 2^32 - 1 bytes"
        )));
    }
    let mut buffer = Vec::new();
    buffer
        .try_reserve_exact(dict_size)
        .map_err(|_| crate::codec::output::out_of_memory(dict_size))?;
    Ok(buffer)
}

fn training_failed(code: usize) -> Error {
    // SAFETY: returns a static string for any code.
    let name = unsafe { std::ffi::CStr::from_ptr(sys::ZDICT_getErrorName(code)) };
    Error::invalid(format!(
        "cannot make a Zstandard dictionary: {}",
        name.to_string_lossy()
    ))
}

/// A dictionary of at most `dict_size` bytes trained on the samples
/// (`samples` is their concatenation, `sizes` their lengths).
pub fn train(samples: &[u8], sizes: &[usize], dict_size: usize) -> Result<Vec<u8>> {
    let count = sample_count(samples, sizes)?;
    let mut buffer = dictionary_buffer(dict_size)?;
    // SAFETY: `buffer` has `dict_size` bytes of capacity, `sizes` has
    // `count` entries that add up to the length of `samples`.
    let code = unsafe {
        sys::ZDICT_trainFromBuffer(
            buffer.as_mut_ptr().cast(),
            dict_size,
            samples.as_ptr().cast(),
            sizes.as_ptr(),
            count,
        )
    };
    // SAFETY: a pure function of its argument.
    if unsafe { sys::ZDICT_isError(code) } != 0 {
        return Err(training_failed(code));
    }
    // SAFETY: zstd wrote `code` bytes (at most the capacity).
    unsafe { buffer.set_len(code) };
    Ok(buffer)
}

/// A dictionary in zstd's format made of `content` (raw bytes or a
/// dictionary) with statistics from the samples, for `level`.
pub fn finalize(
    content: &[u8],
    samples: &[u8],
    sizes: &[usize],
    dict_size: usize,
    level: i32,
) -> Result<Vec<u8>> {
    let count = sample_count(samples, sizes)?;
    let mut buffer = dictionary_buffer(dict_size)?;
    let params = sys::ZDICT_params_t {
        compressionLevel: level,
        notificationLevel: 0,
        dictID: 0,
    };
    // SAFETY: as in `train`, and `content` is valid for its length.
    let code = unsafe {
        sys::ZDICT_finalizeDictionary(
            buffer.as_mut_ptr().cast(),
            dict_size,
            content.as_ptr().cast(),
            content.len(),
            samples.as_ptr().cast(),
            sizes.as_ptr(),
            count,
            params,
        )
    };
    // SAFETY: a pure function of its argument.
    if unsafe { sys::ZDICT_isError(code) } != 0 {
        return Err(training_failed(code));
    }
    // SAFETY: zstd wrote `code` bytes (at most the capacity).
    unsafe { buffer.set_len(code) };
    Ok(buffer)
}
