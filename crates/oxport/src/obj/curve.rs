//! Free-form curves as Blender 3.4 writes them after the meshes: per curve
//! its control points (`v`, 6 decimals), then `g NAME`, `cstype bspline`,
//! `deg`, `curv 0.0 1.0` with relative indices, `parm u` with the knots, `end`.

use crate::mesh::Curve;
use crate::numfmt::{write_fixed, write_i64, write_u32};

use super::refuse_line_break;

/// The statements of `curves`, in order.
pub fn encode_curves(curves: &[Curve]) -> crate::Result<Vec<u8>> {
    let mut out = Vec::new();
    for curve in curves {
        refuse_line_break("curve name", &curve.name)?;
        for point in &curve.points {
            out.push(b'v');
            for &value in point {
                out.push(b' ');
                write_fixed(&mut out, value, 6);
            }
            out.push(b'\n');
        }
        out.extend_from_slice(b"g ");
        out.extend_from_slice(curve.name.as_bytes());
        out.extend_from_slice(b"\ncstype bspline\ndeg ");
        write_u32(&mut out, curve.degree);
        out.extend_from_slice(b"\ncurv 0.0 1.0");
        for &control in &curve.controls {
            out.push(b' ');
            write_i64(&mut out, control);
        }
        out.extend_from_slice(b"\nparm u 0.0");
        for &parameter in &curve.parameters {
            out.push(b' ');
            write_fixed(&mut out, parameter, 6);
        }
        out.extend_from_slice(b" 1.0\nend\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_is_written_as_blender_writes_it() {
        let curve = Curve {
            name: "NurbsPath".into(),
            points: vec![[0.0, 0.0, 0.0], [1.0, 2.5, -0.125]],
            degree: 1,
            controls: vec![-1, -2],
            parameters: vec![0.25, 0.5, 0.75],
        };
        let text = String::from_utf8(encode_curves(&[curve]).unwrap()).unwrap();
        assert_eq!(
            text,
            "v 0.000000 0.000000 0.000000\nv 1.000000 2.500000 -0.125000\ng NurbsPath\n\
             cstype bspline\ndeg 1\ncurv 0.0 1.0 -1 -2\nparm u 0.0 0.250000 0.500000 0.750000 1.0\nend\n"
        );
    }
}
