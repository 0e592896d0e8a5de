//! `format_fixed`: numbers to text as C's `printf("%.Nf")`, for tests and
//! benchmarks that compare with other formatters.

use pyo3::prelude::*;

use crate::errors::invalid;
use crate::view::{Element, Request, View};

/// Formats `values` (a float32 or float64 buffer) with `precision` decimals,
/// exactly as C's `printf("%.Nf")`, one value per line. The GIL is released
/// while formatting.
#[pyfunction]
pub(crate) fn format_fixed(
    py: Python<'_>,
    values: Bound<'_, PyAny>,
    precision: usize,
) -> PyResult<Vec<u8>> {
    oxport::obj::Precision::fixed(i64::try_from(precision).unwrap_or(i64::MAX))
        .map_err(|e| crate::errors::invalid_argument("precision", e))?;
    let buffer = View::get(&values, Request::Array)
        .ok_or_else(|| invalid("values", "expected a float32 or float64 buffer"))?;
    fn lines<F: oxport::numfmt::FixedFloat>(values: &[F], precision: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(values.len() * (precision + 4));
        for &v in values {
            oxport::numfmt::write_fixed(&mut out, v, precision);
            out.push(b'\n');
        }
        out
    }
    Ok(match Element::of(buffer.format(), buffer.item_size()) {
        Element::Float(4) => {
            let values = buffer.to_vec::<f32>()?;
            py.detach(|| lines(&values, precision))
        }
        Element::Float(8) => {
            let values = buffer.to_vec::<f64>()?;
            py.detach(|| lines(&values, precision))
        }
        _ => return Err(invalid("values", "expected float32 or float64")),
    })
}
