//! What a lenient read passed over, reported instead of hidden.

use std::fmt;
use std::path::PathBuf;

/// Something a read passed over: where it first happened, what, and how many
/// times (one warning per kind of thing, not one per line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadWarning {
    /// The file, where there is one.
    pub path: Option<PathBuf>,
    /// The first line it happened on (1-based; 0 when about the file as a whole).
    pub line: u64,
    /// What was passed over and why.
    pub what: String,
    /// How many times.
    pub count: u64,
}

impl fmt::Display for ReadWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            write!(f, "{}:", path.display())?;
        }
        if self.line > 0 {
            write!(f, "{}:", self.line)?;
        }
        if self.path.is_some() || self.line > 0 {
            f.write_str(" ")?;
        }
        f.write_str(&self.what)?;
        if self.count > 1 {
            write!(f, " ({} times)", self.count)?;
        }
        Ok(())
    }
}

/// The warning of free-form statements other than a curve's (`surf`,
/// `parm v`, `curv2`, `trim`...), which a read skips.
pub(crate) const FREE_FORM_SKIPPED: &str =
    "free-form surface statements skipped (curves alone are read)";

/// The warning of free-form curves of a type not read (`cstype bezier`...).
pub(crate) const CURVE_TYPE_SKIPPED: &str =
    "free-form curve type skipped (B-splines alone are read)";

/// Adds one occurrence of `what` at `line` to `warnings`, merged with an
/// earlier one of the same `what` and `path`.
pub(crate) fn add(
    warnings: &mut Vec<ReadWarning>,
    path: Option<&std::path::Path>,
    line: u64,
    what: &str,
    count: u64,
) {
    let same = |w: &&mut ReadWarning| w.what == what && w.path.as_deref() == path;
    match warnings.iter_mut().find(same) {
        Some(warning) => warning.count += count,
        None => warnings.push(ReadWarning {
            path: path.map(PathBuf::from),
            line,
            what: what.to_string(),
            count,
        }),
    }
}
