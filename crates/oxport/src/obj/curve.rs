//! Free-form curves after the meshes, in the layout of the Blender exporter
//! they are made for ([`CurveLayout`]): per curve its control points (`v`,
//! 6 decimals), `g NAME`, `cstype bspline`, `deg`, `curv` with the range
//! and relative indices, `parm u` with the knots, `end`.

use crate::mesh::{Curve, CurveLayout};
use crate::numfmt::{write_fixed, write_i64, write_u32};

use super::refuse_line_break;

/// The statements of `curves`, in order.
pub fn encode_curves(curves: &[Curve]) -> crate::Result<Vec<u8>> {
    let mut out = Vec::new();
    for curve in curves {
        refuse_line_break("curve name", &curve.name)?;
        let points_first = curve.layout != CurveLayout::Blender50;
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
        let numbers = |out: &mut Vec<u8>, values: &[f32]| {
            for &value in values {
                out.push(b' ');
                write_fixed(out, value, 6);
            }
        };
        out.extend_from_slice(b"curv");
        match curve.layout {
            CurveLayout::Blender34 => out.extend_from_slice(b" 0.0 1.0"),
            _ => numbers(&mut out, &curve.range),
        }
        for &control in &curve.controls {
            out.push(b' ');
            write_i64(&mut out, control);
        }
        out.extend_from_slice(b"\nparm u");
        match curve.layout {
            CurveLayout::Blender34 => {
                out.extend_from_slice(b" 0.0");
                numbers(&mut out, &curve.knots);
                out.extend_from_slice(b" 1.0");
            }
            _ => numbers(&mut out, &curve.knots),
        }
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
            knots: vec![0.25, 0.5, 0.75],
            layout: CurveLayout::Blender34,
        };
        let text = |layout| {
            let curve = Curve {
                layout,
                ..curve.clone()
            };
            String::from_utf8(encode_curves(&[curve]).unwrap()).unwrap()
        };
        let points = "v 0.000000 0.000000 0.000000\nv 1.000000 2.500000 -0.125000\n";
        let header = "g NurbsPath\ncstype bspline\ndeg 1\n";
        assert_eq!(
            text(CurveLayout::Blender34),
            format!(
                "{points}{header}curv 0.0 1.0 -1 -2\n\
                 parm u 0.0 0.250000 0.500000 0.750000 1.0\nend\n"
            )
        );
        let rest = "curv 1.000000 2.000000 -1 -2\nparm u 0.250000 0.500000 0.750000\nend\n";
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
