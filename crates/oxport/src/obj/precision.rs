//! How many decimals a kind of number gets: the one rule for a precision,
//! whoever gives it (Rust, the command line, Python).

use crate::numfmt::MAX_PRECISION;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// How many decimals a kind of number gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// `printf("%.Nf")`, N from 0 to 9.
    Fixed(u8),
    /// The shortest text that reads back as the same `f32`.
    Shortest,
}

/// What a precision may be, as every error about one says it.
pub(super) const PRECISIONS: &str = "a precision is 0 to 9 decimals, or shortest";

impl Precision {
    /// `Fixed(decimals)`, when `printf("%.Nf")` takes them here (0 to
    /// [`MAX_PRECISION`]): the one check of a precision for every API.
    pub fn fixed(decimals: i64) -> Result<Self> {
        match u8::try_from(decimals) {
            Ok(p) if usize::from(p) <= MAX_PRECISION => Ok(Precision::Fixed(p)),
            _ => Err(Error::invalid(format!("{decimals}: {PRECISIONS}"))),
        }
    }
}

/// `6`, `shortest`: as the command line and Python take a precision.
impl std::str::FromStr for Precision {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        if text == "shortest" {
            return Ok(Precision::Shortest);
        }
        match text.parse::<i64>() {
            Ok(decimals) => Precision::fixed(decimals),
            Err(_) => Err(Error::invalid(format!("{text:?}: {PRECISIONS}"))),
        }
    }
}

impl std::fmt::Display for Precision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Precision::Fixed(p) => write!(f, "{p}"),
            Precision::Shortest => f.write_str("shortest"),
        }
    }
}
