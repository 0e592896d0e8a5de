//! Free-form curves after the meshes, in a [`CurveLayout`]: per curve its
//! control points (`v`, 6 decimals), `g NAME`, `cstype bspline`, `deg`,
//! `curv` with the range and relative indices, `parm u` with the knots,
//! `end`.

use crate::mesh::Curve;
use crate::numfmt::{write_fixed, write_i64, write_u32};

use super::dialect::CurveLayout;
use super::refuse_line_break;

/// The statements of `curves`, in order, laid out as `layout` says.
pub fn encode_curves(curves: &[Curve], layout: CurveLayout) -> crate::Result<Vec<u8>> {
    let mut out = Vec::new();
    // Blender 3.4 writes its range and its knots' ends with one decimal.
    let short_ends = layout == CurveLayout::Blender34;
    for curve in curves {
        refuse_line_break("curve name", &curve.name)?;
        let points_first = layout != CurveLayout::Blender50;
        if points_first {
            write_points(&mut out, &curve.points);
        }
        out.extend_from_slice(b"g ");
        out.extend_from_slice(curve.name.as_bytes());
        out.extend_from_slice(b"\ncstype bspline\ndeg ");
        write_u32(&mut out, curve.degree);
        out.push(b'\n');
        if !points_first {
            write_points(&mut out, &curve.points);
        }
        // Six decimals, or one for `short` values.
        let numbers = |out: &mut Vec<u8>, values: &[f32], short: &dyn Fn(usize) -> bool| {
            for (i, &value) in values.iter().enumerate() {
                out.push(b' ');
                write_fixed(out, value, if short(i) { 1 } else { 6 });
            }
        };
        out.extend_from_slice(b"curv");
        numbers(&mut out, &curve.range, &|_| short_ends);
        for &control in &curve.controls {
            out.push(b' ');
            write_i64(&mut out, control);
        }
        out.extend_from_slice(b"\nparm u");
        let last = curve.knots.len().saturating_sub(1);
        numbers(&mut out, &curve.knots, &|i| {
            short_ends && (i == 0 || i == last)
        });
        out.extend_from_slice(b"\nend\n");
    }
    Ok(out)
}

fn write_points(out: &mut Vec<u8>, points: &[[f32; 3]]) {
    for point in points {
        out.push(b'v');
        for &value in point {
            out.push(b' ');
            write_fixed(out, value, 6);
        }
        out.push(b'\n');
    }
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
            range: [1.0, 2.0],
            controls: vec![-1, -2],
            knots: vec![0.0, 0.25, 0.5, 0.75, 1.0],
        };
        let text = |layout| {
            String::from_utf8(encode_curves(std::slice::from_ref(&curve), layout).unwrap()).unwrap()
        };
        let points = "v 0.000000 0.000000 0.000000\nv 1.000000 2.500000 -0.125000\n";
        let header = "g NurbsPath\ncstype bspline\ndeg 1\n";
        assert_eq!(
            text(CurveLayout::Blender34),
            format!(
                "{points}{header}curv 1.0 2.0 -1 -2\n\
                 parm u 0.0 0.250000 0.500000 0.750000 1.0\nend\n"
            )
        );
        let rest = "curv 1.000000 2.000000 -1 -2\n\
                    parm u 0.000000 0.250000 0.500000 0.750000 1.000000\nend\n";
        assert_eq!(
            text(CurveLayout::Blender45),
            format!("{points}{header}{rest}")
        );
        assert_eq!(
            text(CurveLayout::Blender50),
            format!("{header}{points}{rest}")
        );
    }
}
