//! Pass 1: a block's statements parsed into its [`Block`], plain lines
//! through [`super::fast`], every other statement here.

use crate::obj::quoted;
use crate::{Error, Result};

use super::ObjectRule;
use super::blender_numbers::{blender_floats, blender_int, is_space, past_spaces};
use super::block::{
    Block, Event, Layout, Span, ZERO, corner_layout, end_face, mark, note_declared, vertex, warn,
};
use super::fast::common_line;
use super::split::{Statements, next_token, parse_error, text, trim};

pub(super) fn parse_block(text: &[u8], strict: bool, rule: ObjectRule) -> Result<Block<'_>> {
    // Room for what a typical file of this size holds (Blender's: a vertex
    // line is ~30 bytes, a face of 4 corners ~40), so that vectors rarely grow.
    let mut block = Block {
        text,
        positions: Vec::with_capacity(text.len() / 120),
        colors: Vec::new(),
        colored: Vec::new(),
        uvs: Vec::with_capacity(text.len() / 120),
        normals: Vec::with_capacity(text.len() / 120),
        mrgb: Vec::new(),
        weights: Vec::new(),
        smooth: Vec::new(),
        smooth_from: usize::MAX,
        smooth_now: None,
        corners: Vec::with_capacity(text.len() / 12),
        faces: Vec::with_capacity(text.len() / 48),
        points: Vec::new(),
        lines: vec![0],
        point_lines: Vec::new(),
        declared: Vec::new(),
        marks: Vec::new(),
        spans: vec![Span::default()],
        skipped: 0,
        warnings: Vec::new(),
    };
    block.faces.push(0);
    let mut at = 0;
    let mut number = 0;
    while at < text.len() {
        if let Some(next) = common_line(&mut block, text, at) {
            at = next;
            number += 1;
            continue;
        }
        let mut statements = Statements {
            rest: &text[at..],
            line: number,
        };
        if let Some((first, line)) = statements.next() {
            parse_line(&mut block, &line, first, strict, rule)?;
        }
        number = statements.line;
        at = text.len() - statements.rest.len();
    }
    Ok(block)
}

/// One statement into `block`; `rule` says which statements end the smooth
/// state (Blender's importer sets it off where it starts an object).
pub(super) fn parse_line(
    block: &mut Block,
    line: &[u8],
    number: u64,
    strict: bool,
    rule: ObjectRule,
) -> Result<()> {
    let line = trim(line);
    if line.is_empty() {
        return Ok(());
    }
    if line[0] == b'#' {
        if let Some(colors) = line.strip_prefix(b"#MRGB") {
            mrgb(block, colors, number)?;
        }
        return Ok(());
    }
    let split = line
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let (keyword, rest) = (&line[..split], &line[split..]);
    // Numbers as Blender's importer reads them, by its rule read leniently.
    let blender_numbers = rule.is_blender() && !strict;
    match keyword {
        b"v" if blender_numbers => {
            let mut at = 0;
            let position = blender_floats::<3>(rest, &mut at, 0.0);
            // (A color where text is left, none with a component below 0.)
            let numbers = (at < rest.len()).then(|| blender_floats::<3>(rest, &mut at, -1.0));
            let color = numbers.filter(|c| c.iter().all(|&x| x >= 0.0));
            // (Else a first number above 0 is the point's weight.)
            if let Some([w, ..]) = numbers.filter(|_| color.is_none())
                && w > 0.0
            {
                block.weights.push((block.positions.len() as u32, w));
            }
            vertex(block, position, color);
        }
        b"vt" if blender_numbers => {
            let [u, v] = blender_floats::<2>(rest, &mut 0, 0.0);
            block.uvs.push([u, v]);
        }
        b"vn" if blender_numbers => block.normals.push(blender_floats::<3>(rest, &mut 0, 0.0)),
        b"v" => {
            let (values, count) = floats::<7>(rest, number, "v")?;
            if count == 4 {
                block
                    .weights
                    .push((block.positions.len() as u32, values[3]));
            }
            let color = match count {
                3 | 4 => None,
                6 | 7 => Some([values[3], values[4], values[5]]),
                _ => return Err(parse_error(number, format!("v has {count} numbers"))),
            };
            vertex(block, [values[0], values[1], values[2]], color);
        }
        b"vt" => {
            let (values, count) = floats::<3>(rest, number, "vt")?;
            if count == 0 {
                return Err(parse_error(number, "vt has no numbers"));
            }
            block.uvs.push([values[0], values[1]]);
        }
        b"vn" => {
            let (values, count) = floats::<3>(rest, number, "vn")?;
            if count != 3 {
                return Err(parse_error(number, format!("vn has {count} numbers")));
            }
            block.normals.push(values);
        }
        b"f" => face(block, rest, number, strict, rule.is_blender())?,
        b"l" if blender_numbers && !rule.whole_lines() => first_edge(block, rest),
        b"l" => polyline(block, rest, number, strict, blender_numbers)?,
        b"o" => {
            mark(block, Event::Object(text(trim(rest), number, "o")?));
            smooth_off_at_object(block, rule, keyword);
        }
        b"g" => {
            mark(block, Event::Group(text(trim(rest), number, "g")?));
            smooth_off_at_object(block, rule, keyword);
        }
        b"usemtl" => mark(block, Event::Material(text(trim(rest), number, "usemtl")?)),
        b"mtllib" => mark(block, Event::MtlLib(text(trim(rest), number, "mtllib")?)),
        b"s" => {
            let rest = trim(rest);
            let group = match rest {
                b"off" => 0,
                _ => std::str::from_utf8(rest)
                    .ok()
                    .and_then(|t| t.parse::<u32>().ok())
                    .ok_or_else(|| {
                        parse_error(
                            number,
                            format!("s wants a group number or off, not {}", quoted(rest)),
                        )
                    })?,
            };
            set_smooth(block, group);
        }
        // (Blender's importer reads no points.)
        b"p" if rule.is_blender() => {
            block.skipped += 1;
            warn(
                block,
                number,
                "points (p) skipped, as Blender's importer skips them".into(),
            );
        }
        b"p" => points(block, rest, number, strict)?,
        b"cstype" => curve_type(block, trim(rest), number, rule),
        b"deg" => {
            let degree = degree(rest, number, blender_numbers)?;
            mark(block, Event::Degree(degree));
        }
        b"curv" => curve(block, rest, number, blender_numbers)?,
        b"parm" => knots(block, rest, number, blender_numbers)?,
        // (What `end` closes, the statements before it have made.)
        b"end" => {}
        b"curv2" | b"surf" | b"trim" | b"hole" | b"scrv" | b"sp" | b"bmat" | b"step" | b"mg"
        | b"lod" | b"shadow_obj" | b"trace_obj" | b"ctech" | b"stech" | b"bevel" | b"c_interp"
        | b"d_interp" | b"vp" => {
            block.skipped += 1;
            warn(block, number, crate::obj::FREE_FORM_SKIPPED.into());
        }
        _ if strict => {
            return Err(parse_error(
                number,
                format!("unknown statement {}", quoted(keyword)),
            ));
        }
        _ => {
            block.skipped += 1;
            let what = format!("unknown statement {} skipped", quoted(keyword));
            warn(block, number, what.into());
        }
    }
    Ok(())
}

/// `cstype`: curves of B-splines, rational or not, are read (by Blender's
/// rule, rational ones from 4.1 on, as its importer reads them); other types
/// are skipped with a warning.
fn curve_type(block: &mut Block, kind: &[u8], line: u64, rule: ObjectRule) {
    let rational = match kind {
        // (Blender's importer reads the type's first word alone.)
        _ if rule.is_blender() && kind.starts_with(b"bspline") => false,
        _ if rule.is_blender() && kind.starts_with(b"rat bspline") => true,
        b"bspline" => false,
        _ if is_rational_bspline(kind) => true,
        _ => {
            block.skipped += 1;
            warn(block, line, crate::obj::CURVE_TYPE_SKIPPED.into());
            if !rule.is_blender() {
                mark(block, Event::OtherCurve);
            }
            return;
        }
    };
    if rational && !rule.rational_curves() {
        block.skipped += 1;
        warn(block, line, crate::obj::CURVE_TYPE_SKIPPED.into());
        return;
    }
    mark(block, Event::CurveType { rational });
}

/// `rat bspline`, its words apart by any white space.
fn is_rational_bspline(kind: &[u8]) -> bool {
    let mut words = kind
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty());
    words.next() == Some(b"rat") && words.next() == Some(b"bspline") && words.next().is_none()
}

/// `deg`'s first number. Blender's importer reads leniently
/// (`blender_numbers`): an integer's digits, else 3.
fn degree(rest: &[u8], line: u64, blender_numbers: bool) -> Result<i32> {
    if blender_numbers {
        return Ok(blender_int(rest, &mut 0).unwrap_or(3));
    }
    let first = next_token(rest, &mut 0).unwrap_or_default();
    std::str::from_utf8(first)
        .ok()
        .and_then(|t| t.parse::<i32>().ok())
        .filter(|&d| d >= 1)
        .ok_or_else(|| parse_error(line, format!("deg wants a degree, not {}", quoted(first))))
}

/// `curv u0 u1 v1 v2 ...`: the parameter range and the control points. Read
/// leniently (`blender_numbers`), as Blender's importer reads it: the range
/// as two numbers read together (0 where none is found), then integers up to
/// the first that is not one.
fn curve(block: &mut Block, rest: &[u8], line: u64, blender_numbers: bool) -> Result<()> {
    let mut at = 0;
    let mut points = Vec::new();
    let range = if blender_numbers {
        let range = blender_floats::<2>(rest, &mut at, 0.0);
        while at < rest.len() {
            // (Blender's end marker: i32::MAX stops the points too.)
            match blender_int(rest, &mut at) {
                Some(point) if point != i32::MAX => {
                    points.push(if point == 0 { ZERO } else { point })
                }
                _ => break,
            }
        }
        range
    } else {
        let mut range = [0.0f32; 2];
        for slot in &mut range {
            *slot = float(next_token(rest, &mut at).unwrap_or_default(), line)?;
        }
        while let Some(token) = next_token(rest, &mut at) {
            points.push(index(token, line)?);
        }
        range
    };
    mark(
        block,
        Event::Curve {
            range,
            points,
            line,
        },
    );
    Ok(())
}

/// `parm u k1 k2 ...`: the knots of the current curve, added to those it
/// has. `parm v` (a surface's) is skipped with a warning. Read leniently
/// (`blender_numbers`), as Blender's importer reads it: the `u` is the first
/// character alone, and a number that is not one ends the knots.
fn knots(block: &mut Block, rest: &[u8], line: u64, blender_numbers: bool) -> Result<()> {
    let mut at = 0;
    let mut knots = Vec::new();
    if blender_numbers {
        at = past_spaces(rest, 0);
        if rest.get(at) != Some(&b'u') {
            skip_surface(block, line);
            return Ok(());
        }
        at += 1;
        while at < rest.len() {
            // (Blender's end marker: f32::MAX stops the knots too.)
            match blender_floats::<1>(rest, &mut at, f32::MAX) {
                [f32::MAX] => break,
                [knot] => knots.push(knot),
            }
        }
    } else {
        if next_token(rest, &mut at) != Some(b"u") {
            skip_surface(block, line);
            return Ok(());
        }
        while let Some(token) = next_token(rest, &mut at) {
            knots.push(float(token, line)?);
        }
    }
    mark(block, Event::Knots(knots));
    Ok(())
}

/// A surface's statement, skipped with a warning.
fn skip_surface(block: &mut Block, line: u64) {
    block.skipped += 1;
    warn(block, line, crate::obj::FREE_FORM_SKIPPED.into());
}

/// Blender's objects start with the smooth state off: where `keyword`
/// starts one by Blender's `rule`.
fn smooth_off_at_object(block: &mut Block, rule: ObjectRule, keyword: &[u8]) {
    if rule.is_blender() && rule.starts_object(keyword) {
        set_smooth(block, 0);
    }
}

/// The smooth group of the faces that follow.
fn set_smooth(block: &mut Block, group: u32) {
    if block.smooth_now.is_none() {
        block.smooth_from = block.faces.len() - 1;
    }
    block.smooth_now = Some(group);
}

/// ZBrush's vertex colors (polypaint): `#MRGB` then 8 hexadecimal digits
/// per vertex, mask (not kept), red, green, blue.
pub(super) fn mrgb(block: &mut Block, text: &[u8], line: u64) -> Result<()> {
    let digits: Vec<u8> = text
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let hex = |pair: &[u8]| {
        std::str::from_utf8(pair)
            .ok()
            .and_then(|t| u8::from_str_radix(t, 16).ok())
    };
    if !digits.len().is_multiple_of(8) {
        return Err(parse_error(
            line,
            "#MRGB colors are 8 hexadecimal digits each",
        ));
    }
    for color in digits.chunks_exact(8) {
        let channel = |i: usize| hex(&color[i..i + 2]).map(|v| f32::from(v) / 255.0);
        let (Some(r), Some(g), Some(b)) = (channel(2), channel(4), channel(6)) else {
            return Err(parse_error(
                line,
                format!("{} is not an #MRGB color", quoted(color)),
            ));
        };
        block.mrgb.push([r, g, b]);
    }
    Ok(())
}

/// A face (`f`). Leniently, a face of two corners is read as a loose edge
/// (`l`: Blender 3.4's importer drops it and keeps its vertices; an edge
/// keeps the pair) and one of fewer corners is skipped, each with a warning;
/// `strict` refuses both. By Blender's rule (`blender`) its corners may
/// differ in having UVs or normals (its importer gives those without zeros),
/// and, leniently, one of 1 or 2 corners is kept as a face, which the
/// resolve skips keeping its positions (as Blender's importer keeps them,
/// loose).
pub(super) fn face(
    block: &mut Block,
    rest: &[u8],
    line: u64,
    strict: bool,
    blender: bool,
) -> Result<()> {
    let start = block.corners.len();
    let mut at = 0;
    while let Some(token) = next_token(rest, &mut at) {
        let corner = corner(token, line)?;
        block.corners.push(corner);
    }
    let corners = &block.corners[start..];
    let short = corners.len() < 3;
    if short && !(blender && !strict && !corners.is_empty()) {
        let count = corners.len();
        if strict {
            return Err(parse_error(
                line,
                format!("a face needs 3 corners, not {count}"),
            ));
        }
        let points: Vec<i32> = corners.iter().map(|c| c[0]).collect();
        block.corners.truncate(start);
        if count == 2 {
            warn(
                block,
                line,
                "a face with 2 corners read as a loose edge".into(),
            );
            add_line(block, &points);
            return Ok(());
        }
        warn(
            block,
            line,
            format!("a face with {count} corners skipped").into(),
        );
        return Ok(());
    }
    let layout = corners
        .iter()
        .map(corner_layout)
        .reduce(Layout::union)
        .unwrap_or_default();
    if !blender && corners.iter().any(|c| corner_layout(c) != layout) {
        return Err(parse_error(
            line,
            "a face's corners must all have UVs (or none), and normals (or none)",
        ));
    }
    if short {
        let count = corners.len();
        warn(
            block,
            line,
            format!("a face with {count} corners skipped, its positions kept").into(),
        );
    }
    end_face(block, layout);
    Ok(())
}

/// A line (`l`) of two or more points; leniently, one of fewer is skipped
/// with a warning, but that by Blender's rule (`blender`) a line of one
/// point keeps it, as a loose vertex.
pub(super) fn polyline(
    block: &mut Block,
    rest: &[u8],
    line: u64,
    strict: bool,
    blender: bool,
) -> Result<()> {
    if blender {
        return blender_polyline(block, rest, line);
    }
    let mut points = Vec::new();
    let mut at = 0;
    while let Some(token) = next_token(rest, &mut at) {
        points.push(corner(token, line)?[0]);
    }
    if points.len() < 2 {
        let size = points.len();
        if strict {
            return Err(parse_error(
                line,
                format!("a line needs 2 points, not {size}"),
            ));
        }
        warn(
            block,
            line,
            format!("a line with {size} points skipped").into(),
        );
        return Ok(());
    }
    add_line(block, &points);
    Ok(())
}

/// An `l` line as Blender's importer reads it from 4.5: a line of one point
/// keeps it, one of none is skipped.
fn blender_polyline(block: &mut Block, rest: &[u8], line: u64) -> Result<()> {
    let points = blender_polyline_points(rest);
    match points.len() {
        0 => warn(block, line, "a line without a first point skipped".into()),
        1 => return points_statement(block, &points),
        _ => add_line(block, &points),
    }
    Ok(())
}

/// The points of an `l` line as Blender's importer reads them from 4.5
/// (`geom_add_polyline`): each the integer its word starts with, up to the
/// first that is not one (or is 0).
pub(super) fn blender_polyline_points(rest: &[u8]) -> Vec<i32> {
    let mut points = Vec::new();
    let mut at = 0;
    while let Some(point) = blender_int(rest, &mut at).filter(|&p| p != 0 && p != i32::MAX) {
        points.push(point);
        // (What follows the index in its word, a UV index, is not read.)
        at += rest[at..].iter().take_while(|&&b| !is_space(b)).count();
    }
    points
}

/// A `p` statement: its points, kept as a line without edges; leniently, one
/// without any is skipped with a warning.
fn points(block: &mut Block, rest: &[u8], line: u64, strict: bool) -> Result<()> {
    let mut points = Vec::new();
    let mut at = 0;
    while let Some(token) = next_token(rest, &mut at) {
        points.push(corner(token, line)?[0]);
    }
    if points.is_empty() {
        if strict {
            return Err(parse_error(line, "p needs a point"));
        }
        warn(block, line, "p without points skipped".into());
        return Ok(());
    }
    points_statement(block, &points)
}

/// Points kept as a line without edges.
fn points_statement(block: &mut Block, points: &[i32]) -> Result<()> {
    block.point_lines.push((block.lines.len() - 1) as u32);
    add_line(block, points);
    Ok(())
}

/// An `l` line as Blender 3.4's importer reads it: the edge of its first
/// two integers alone, read one after the other (the second from where the
/// first ends: `1/2` or `1.5` leave it nothing), `-1` (the last vertex
/// declared) for each not found.
fn first_edge(block: &mut Block, rest: &[u8]) {
    let mut at = 0;
    let mut index = || match blender_int(rest, &mut at).unwrap_or(-1) {
        0 => ZERO,
        i => i,
    };
    let points = [index(), index()];
    add_line(block, &points);
}

/// Appends a line of `points` (raw position indices).
fn add_line(block: &mut Block, points: &[i32]) {
    note_declared(block);
    block.points.extend_from_slice(points);
    block.lines.push(block.points.len() as u32);
}

/// Up to `N` numbers of a statement, and how many there were.
#[inline]
pub(super) fn floats<const N: usize>(
    rest: &[u8],
    line: u64,
    what: &str,
) -> Result<([f32; N], usize)> {
    let mut values = [0.0f32; N];
    let mut count = 0;
    let mut at = 0;
    while let Some(token) = next_token(rest, &mut at) {
        if count == N {
            return Err(parse_error(
                line,
                format!("{what} has more than {N} numbers"),
            ));
        }
        values[count] = float(token, line)?;
        count += 1;
    }
    Ok((values, count))
}

#[inline]
pub(super) fn float(token: &[u8], line: u64) -> Result<f32> {
    std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse::<f32>().ok())
        .ok_or_else(|| parse_error(line, format!("{} is not a number", quoted(token))))
}

/// `v`, `v/t`, `v//n` or `v/t/n`.
#[inline]
pub(super) fn corner(token: &[u8], line: u64) -> Result<[i32; 3]> {
    let mut out = [0i32; 3];
    let mut parts = token.split(|&b| b == b'/');
    for (i, slot) in out.iter_mut().enumerate() {
        match parts.next() {
            Some(b"") if i > 0 => {}
            Some(part) => *slot = index(part, line)?,
            None => break,
        }
    }
    if parts.next().is_some() {
        return Err(parse_error(
            line,
            format!("{} has more than three indices", quoted(token)),
        ));
    }
    Ok(out)
}

#[inline]
pub(super) fn index(part: &[u8], line: u64) -> Result<i32> {
    let (negative, digits) = match part.first() {
        Some(b'-') => (true, &part[1..]),
        Some(b'+') => (false, &part[1..]),
        _ => (false, part),
    };
    let mut value = 0i64;
    if digits.is_empty() || digits.len() > 18 {
        return Err(not_an_index(part, line));
    }
    for &d in digits {
        if !d.is_ascii_digit() {
            return Err(not_an_index(part, line));
        }
        value = value * 10 + i64::from(d - b'0');
    }
    if value == 0 {
        // Refused or the face left out when resolved (a strict or a
        // lenient read), as other indices out of range are.
        return Ok(ZERO);
    }
    if value > i64::from(i32::MAX) {
        return Err(parse_error(
            line,
            format!("index {value} is beyond what oxport reads (2^31 - 1)"),
        ));
    }
    i32::try_from(if negative { -value } else { value }).map_err(|_| {
        parse_error(
            line,
            format!("index {value} is beyond what oxport reads (2^31 - 1)"),
        )
    })
}

#[cold]
pub(super) fn not_an_index(part: &[u8], line: u64) -> Error {
    parse_error(line, format!("{} is not an index", quoted(part)))
}
