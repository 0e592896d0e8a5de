//! Cutting text: into newline-aligned blocks for the parsing threads, into
//! statements (lines joined at `\` continuations), into tokens; and the
//! errors that quote a piece of it.

use std::borrow::Cow;

use crate::{Error, Result};

pub(super) fn line_count(data: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', data).count() as u64
}

/// The comment lines before the first statement.
pub(super) fn header(data: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    for line in data.split(|&b| b == b'\n') {
        let line = trim(line);
        match line.strip_prefix(b"#") {
            Some(text) => {
                let text = text.strip_prefix(b" ").unwrap_or(text);
                lines.push(String::from_utf8_lossy(text).into_owned());
            }
            None if line.is_empty() => {}
            None => break,
        }
    }
    lines
}

/// The smallest block: the pipeline's smallest task. (Built for fuzzing,
/// small inputs are cut into many blocks.)
#[cfg(not(fuzzing))]
pub(super) const MIN_BLOCK: usize = crate::pipeline::MIN_TASK_BYTES;
#[cfg(fuzzing)]
pub(super) const MIN_BLOCK: usize = 256;

/// Up to `count` block boundaries at line ends (never inside a line continued
/// with `\`): `[0, ..., data.len()]`. Blocks are at most 1 GiB, so that a
/// block's corners are counted in 32 bits.
pub(super) fn block_starts(data: &[u8], count: usize) -> Vec<usize> {
    let mut starts = vec![0];
    let size = data.len().div_ceil(count.max(1)).clamp(MIN_BLOCK, 1 << 30);
    let mut at = size;
    while at < data.len() {
        let Some(newline) = memchr::memchr(b'\n', &data[at..]) else {
            break;
        };
        let end = at + newline + 1;
        let line = trim_end(&data[..end - 1]);
        if line.ends_with(b"\\") {
            at = end; // a continued line: cut after its continuation
            continue;
        }
        if end < data.len() {
            starts.push(end);
        }
        at = end + size;
    }
    starts.push(data.len());
    starts
}

pub(super) fn parse_error(line: u64, reason: impl Into<Cow<'static, str>>) -> Error {
    Error::Parse {
        path: None,
        line,
        reason: reason.into(),
    }
}

pub(super) fn trim(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    trim_end(&line[start..])
}

pub(super) fn trim_end(line: &[u8]) -> &[u8] {
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    &line[..end]
}

/// The statements of a text: each with its (first) line number, lines
/// continued with `\` joined with a space.
pub(super) struct Statements<'a> {
    pub(super) rest: &'a [u8],
    pub(super) line: u64,
}

impl<'a> Statements<'a> {
    /// The next line, without its `\n` and trailing whitespace.
    fn take(&mut self) -> &'a [u8] {
        let (line, rest) = match memchr::memchr(b'\n', self.rest) {
            Some(p) => (&self.rest[..p], &self.rest[p + 1..]),
            None => (self.rest, &self.rest[self.rest.len()..]),
        };
        self.rest = rest;
        self.line += 1;
        trim_end(line)
    }
}

impl<'a> Iterator for Statements<'a> {
    type Item = (u64, Cow<'a, [u8]>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let first = self.line + 1;
        let mut line = self.take();
        if !line.ends_with(b"\\") {
            return Some((first, Cow::Borrowed(line)));
        }
        let mut joined = Vec::new();
        while let Some(head) = line.strip_suffix(b"\\") {
            joined.extend_from_slice(head);
            joined.push(b' ');
            if self.rest.is_empty() {
                return Some((first, Cow::Owned(joined)));
            }
            line = self.take();
        }
        joined.extend_from_slice(line);
        Some((first, Cow::Owned(joined)))
    }
}

pub(super) fn statements(text: &[u8]) -> Statements<'_> {
    Statements {
        rest: text,
        line: 0,
    }
}

/// A statement's text (a name), without a carriage return inside (it could
/// not be written back on one line): UTF-8, or else Latin-1 (older exporters
/// wrote names in the system's 8-bit encoding), whose every byte is a character.
pub(super) fn text(bytes: &[u8], line: u64, what: &str) -> Result<String> {
    if bytes.contains(&b'\r') {
        return Err(parse_error(
            line,
            format!("{what} has a carriage return inside"),
        ));
    }
    Ok(match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    })
}

/// The next whitespace-separated token of `text` from `at`.
#[inline]
pub(super) fn next_token<'a>(text: &'a [u8], at: &mut usize) -> Option<&'a [u8]> {
    let mut i = *at;
    while i < text.len() && text[i].is_ascii_whitespace() {
        i += 1;
    }
    if i == text.len() {
        *at = i;
        return None;
    }
    let start = i;
    while i < text.len() && !text[i].is_ascii_whitespace() {
        i += 1;
    }
    *at = i;
    Some(&text[start..i])
}
