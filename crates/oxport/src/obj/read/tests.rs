use super::*;
use crate::obj::ReadWarning;

fn parse(text: &str) -> Result<Scene> {
    read_bytes(text.as_bytes(), &ReadOptions::default())
}

/// `text` read leniently by `objects` on `threads` threads (None: every
/// core), without MTL files.
fn read_by(text: &str, objects: ObjectRule, threads: Option<usize>) -> Scene {
    let options = ReadOptions {
        objects,
        threads,
        materials: false,
        ..ReadOptions::default()
    };
    read_bytes(text.as_bytes(), &options).unwrap()
}

/// `text` read by Blender's rule (4.5 and later).
fn read_blender(text: &str) -> Scene {
    read_by(text, ObjectRule::BLENDER, None)
}

#[test]
fn objects_own_their_elements() {
    let scene = parse(
        "# made by hand\nmtllib a.mtl\no first\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\n\
         s 0\nusemtl red\nf 1//1 2//1 3//1\no second\nv 0 0 1\nv 1 0 1\nv 1 1 1\n\
         f -3 -2 -1\nl 4 6\n",
    )
    .unwrap();
    assert_eq!(scene.header, ["made by hand"]);
    assert_eq!(scene.mtllibs, ["a.mtl"]);
    let [a, b] = &scene.meshes[..] else {
        panic!("{:?}", scene.meshes.len())
    };
    assert_eq!(a.name, "first");
    assert_eq!(a.normal_indices.as_deref(), Some(&[0, 0, 0][..]));
    assert_eq!(a.materials, ["red"]);
    assert_eq!(a.smooth.as_deref(), Some(&[0][..]));
    assert_eq!(b.name, "second");
    assert_eq!(b.positions.len(), 3);
    assert_eq!(&b.position_indices[..], &[0, 1, 2]);
    assert_eq!(b.edges.as_deref(), Some(&[[0, 2]][..]));
    // The smooth group and material carry over to the second object.
    assert_eq!(b.smooth.as_deref(), Some(&[0][..]));
    assert!(b.normals.is_none());
    a.validate().unwrap();
    b.validate().unwrap();
}

#[test]
fn errors_name_the_line_and_the_reason() {
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    let strict_error = |text: &str| {
        read_bytes(text.as_bytes(), &strict)
            .unwrap_err()
            .to_string()
    };
    let error = |text: &str| parse(text).unwrap_err().to_string();
    assert_eq!(
        strict_error("v 0 0 0\nf 1 2 3\n"),
        "line 2: position index 2 is out of range (1 declared before this line, 1 in the file)"
    );
    assert_eq!(error("v 0 0 x\n"), "line 1: \"x\" is not a number");
    // The first error in the file, whatever the order statements are resolved in.
    assert_eq!(
        strict_error("v 0 0 0\nvt 0 0\nl 1 2\nf 1/1 1/1 1/9\n"),
        "line 3: position index 2 is out of range (1 declared before this line, 1 in the file)"
    );
    assert_eq!(
        strict_error("f 0 1 2\n"),
        "line 1: index 0 (indices start at 1)"
    );
    // A line with an index out of range is an error, leniently too.
    assert_eq!(
        error("v 0 0 0\nl 1 3\n"),
        "line 2: position index 3 is out of range (1 declared before this line, 1 in the file)"
    );
    // A face read as an edge is checked as one.
    assert_eq!(
        error("v 0 0 0\nf 1 3\n"),
        "line 2: position index 3 is out of range (1 declared before this line, 1 in the file)"
    );
    assert_eq!(
        strict_error("v 0 0 0\n\nf 1 1\n"),
        "line 3: a face needs 3 corners, not 2"
    );
    assert_eq!(
        strict_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2//1 3//1\n"),
        "line 4: normal index 1 is out of range (0 declared before this line, 0 in the file)"
    );
    let unknown = read_bytes(b"v 1 2 3\nfoo bar\n", &strict).unwrap_err();
    assert_eq!(unknown.to_string(), "line 2: unknown statement \"foo\"");
    assert_eq!(parse("v 1 2 3\nfoo bar\n").unwrap().skipped, 1);
}

#[test]
fn vertex_colors_are_kept() {
    let scene = parse("v 0 0 0 1 0.5 0\nv 1 0 0\nv 0 1 0 0 0 1\nf 1 2 3\n").unwrap();
    let colors = scene.meshes[0].colors.as_deref().unwrap();
    assert_eq!(colors, &[[1.0, 0.5, 0.0], [0.0; 3], [0.0, 0.0, 1.0]]);
    assert!(
        parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
            .unwrap()
            .meshes[0]
            .colors
            .is_none()
    );
    // An object without a colored vertex has no colors.
    let scene = parse(
        "o A\nv 0 0 0 1 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\no B\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf 4 5 6\n",
    )
    .unwrap();
    assert!(scene.meshes[0].colors.is_some());
    assert!(scene.meshes[1].colors.is_none());
}

#[test]
fn zbrush_polypaint_is_read_as_vertex_colors() {
    // ZBrush writes `#MRGB` lines (mask, red, green, blue per vertex) after its vertices.
    let scene =
        parse("v 0 0 0\nv 1 0 0\n#MRGB ff0000ff 00ff0000\nv 0 1 0\n#MRGB 80ffffff\nf 1 2 3\n")
            .unwrap();
    let colors = scene.meshes[0].colors.as_deref().unwrap();
    assert_eq!(colors, &[[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [1.0; 3]]);
    assert_eq!(
        parse("v 0 0 0\n#MRGB ff00zz00\n").unwrap_err().to_string(),
        "line 2: \"ff00zz00\" is not an #MRGB color"
    );
}

#[test]
fn short_faces_and_lines_are_edges_or_skipped_and_reported() {
    let text =
        "o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2\nf\nf 3\nl 2\nf -1 -3\nfoo 1\nfoo 2\np 1\n";
    let scene = parse(text).unwrap();
    let [mesh] = &scene.meshes[..] else {
        panic!("{:?}", scene.meshes)
    };
    assert_eq!(mesh.face_count(), 1);
    assert_eq!(mesh.edges.as_deref(), Some(&[[0, 1], [2, 0]][..]));
    assert_eq!(mesh.points.as_deref(), Some(&[0][..]));
    mesh.validate().unwrap();
    let warnings: Vec<String> = scene.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        [
            "6: a face with 2 corners read as a loose edge (2 times)",
            "7: a face with 0 corners skipped",
            "8: a face with 1 corners skipped",
            "9: a line with 1 points skipped",
            "11: unknown statement \"foo\" skipped (2 times)",
        ]
    );
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    for text in [
        "f\n",
        "f \n",
        "f 1\n",
        "v 0 0 0\nf 1 1\n",
        "v 0 0 0\nl 1\n",
        "p\n",
    ] {
        assert!(read_bytes(text.as_bytes(), &strict).is_err(), "{text:?}");
    }
}

#[test]
fn warnings_count_lines_across_blocks() {
    // Enough text for several blocks: the warning's line is the file's.
    let mut text = String::from("o big\n");
    for i in 0..40_000 {
        text += &format!("v {i} 0 0\n");
    }
    text += "f 1 2\nf 3 4\n";
    let options = ReadOptions {
        threads: Some(4),
        ..ReadOptions::default()
    };
    let scene = read_bytes(text.as_bytes(), &options).unwrap();
    assert_eq!(
        scene.warnings,
        [ReadWarning {
            path: None,
            line: 40_002,
            what: "a face with 2 corners read as a loose edge".into(),
            count: 2,
        }]
    );
    assert_eq!(scene.meshes[0].edges.as_deref().map(<[_]>::len), Some(2));
}

#[test]
fn shared_elements_belong_to_the_objects_that_use_them() {
    // Positions before the first `o`, used by two objects: no mesh of their own.
    let scene = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\no a\nf 1 2 3\no b\nf 2 4 3\n").unwrap();
    let names: Vec<&str> = scene.meshes.iter().map(|m| m.name.as_ref()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(scene.meshes[0].positions.len(), 3);
    assert_eq!(scene.meshes[1].positions.len(), 3);
    // Positions nobody uses stay, as a mesh of points (and nothing else).
    let scene = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 5 5 5\no a\nf 1 2 3\n").unwrap();
    let names: Vec<&str> = scene.meshes.iter().map(|m| m.name.as_ref()).collect();
    assert_eq!(names, ["", "a"]);
    assert_eq!(&scene.meshes[0].positions[..], &[[5.0, 5.0, 5.0]]);
    assert_eq!(&scene.meshes[0].face_offsets[..], &[0]);
    // A point cloud keeps its points; an object keeps its unused vertices.
    let scene =
        parse("o cloud\nv 0 0 0\nv 1 1 1\no tri\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 9 9 9\nf 3 4 5\n")
            .unwrap();
    assert_eq!(scene.meshes[0].name, "cloud");
    assert_eq!(scene.meshes[0].positions.len(), 2);
    assert_eq!(scene.meshes[1].positions.len(), 4);
    for mesh in &scene.meshes {
        mesh.validate().unwrap();
    }
}

#[test]
fn a_mesh_without_faces_has_one_face_offset() {
    let scene = parse("o edges\nv 0 0 0\nv 1 0 0\nl 1 2\n").unwrap();
    assert_eq!(&scene.meshes[0].face_offsets[..], &[0]);
    assert_eq!(scene.meshes[0].face_count(), 0);
}

#[test]
fn continuations_crlf_tabs_and_no_final_newline() {
    let scene = parse("v 0 0 0\r\nv 1\t0 0 \r\nv 0 1 \\\n 0\nf 1 2 \\\n3").unwrap();
    let mesh = &scene.meshes[0];
    assert_eq!(mesh.positions[2], [0.0, 1.0, 0.0]);
    assert_eq!(&mesh.position_indices[..], &[0, 1, 2]);
}

#[test]
fn blocks_parse_the_same_as_one() {
    let mut text = String::new();
    for o in 0..200 {
        text.push_str(&format!("o object_{o}\n"));
        for i in 0..400 {
            text.push_str(&format!("v {i} {o}.5 -{i}.25\nvt 0.{i} 0.5\n"));
        }
        for i in 0..399 {
            text.push_str(&format!(
                "f {a}/{a} {b}/{b} -1/-1\n",
                a = i + 1 + o * 400,
                b = i + 2 + o * 400
            ));
        }
    }
    let one = read_bytes(
        text.as_bytes(),
        &ReadOptions {
            threads: Some(1),
            ..ReadOptions::default()
        },
    )
    .unwrap();
    let many = read_bytes(
        text.as_bytes(),
        &ReadOptions {
            threads: Some(8),
            ..ReadOptions::default()
        },
    )
    .unwrap();
    assert!(block_starts(text.as_bytes(), 32).len() > 3);
    assert_eq!(one, many);
    assert_eq!(one.meshes.len(), 200);
    assert_eq!(one.meshes[7].positions.len(), 400);
}

#[test]
fn faces_of_another_layout_make_another_mesh() {
    // 3ds Max's Max2Obj writes faces with UVs and faces without in one
    // object: a mesh has one layout, so the object is read as one mesh per
    // layout, the later ones with copies of the elements they use.
    let scene = parse(
        "o box\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nusemtl a\n\
         f 1 2 3\nf 1/1 3/1 4/1\nf -4 -2 -1\nl 1 2\n",
    )
    .unwrap();
    let [plain, with_uvs] = &scene.meshes[..] else {
        panic!("{:?}", scene.meshes.len())
    };
    assert_eq!(
        (plain.name.as_ref(), with_uvs.name.as_ref()),
        ("box", "box")
    );
    assert_eq!(plain.positions.len(), 4);
    assert_eq!(&plain.face_offsets[..], &[0, 3, 6]);
    assert_eq!(&plain.position_indices[..], &[0, 1, 2, 0, 2, 3]);
    assert!(plain.uvs.is_none());
    assert_eq!(plain.edges.as_deref(), Some(&[[0, 1]][..]));
    assert_eq!(
        &with_uvs.positions[..],
        &[[0.0; 3], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]
    );
    assert_eq!(&with_uvs.position_indices[..], &[0, 1, 2]);
    assert_eq!(with_uvs.uv_indices.as_deref(), Some(&[0, 0, 0][..]));
    assert_eq!(with_uvs.materials, ["a"]);
    plain.validate().unwrap();
    with_uvs.validate().unwrap();
}

#[test]
fn smooth_groups_of_mixed_layouts_are_per_face() {
    let scene = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/1 3/1\ns 1\nf 1 2 3\n").unwrap();
    let [with_uvs, plain] = &scene.meshes[..] else {
        panic!("{:?}", scene.meshes.len())
    };
    assert!(with_uvs.smooth.is_none());
    assert_eq!(plain.smooth.as_deref(), Some(&[1][..]));
}

#[test]
fn byte_order_marks_and_latin1_names() {
    let scene = parse("\u{feff}v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    assert_eq!(scene.meshes[0].positions.len(), 3);
    let utf16: Vec<u8> = "\u{feff}o \u{e6}\r\nv 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    let scene = read_bytes(&utf16, &ReadOptions::default()).unwrap();
    assert_eq!(scene.meshes[0].name, "\u{e6}");
    let latin1 = b"o Terraind\xe6k\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    let scene = read_bytes(latin1, &ReadOptions::default()).unwrap();
    assert_eq!(scene.meshes[0].name, "Terraind\u{e6}k");
}

/// Blender's rule: an `o` renames an object without faces or lines, and
/// the materials are those the `usemtl` statements name while an object is
/// current (one that is current at an object's first face comes first when
/// the object has named none).
#[test]
fn blender_objects_take_the_materials_their_statements_name() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n\
                usemtl carried\no kept\nf 1 2 3\nusemtl later\n\
                o empty\nusemtl blue\no renamed\nusemtl green\nf 2 3 4\n\
                o after\nf 1 2 4\nusemtl unused\n";
    let read = |objects: ObjectRule| {
        let options = ReadOptions {
            objects,
            ..ReadOptions::default()
        };
        read_bytes(text.as_bytes(), &options).unwrap().meshes
    };
    let names = |meshes: &[Mesh]| -> Vec<(String, Vec<String>)> {
        let materials = |m: &Mesh| m.materials.iter().map(|n| n.to_string()).collect();
        meshes
            .iter()
            .map(|m| (m.name.to_string(), materials(m)))
            .collect()
    };
    let owned = |list: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
        let strings = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
        list.iter()
            .map(|(n, m)| (n.to_string(), strings(m)))
            .collect()
    };
    let blender = read(ObjectRule::BLENDER);
    assert_eq!(
        names(&blender),
        owned(&[
            ("kept", &["carried", "later"]),
            ("renamed", &["blue", "green"]),
            ("after", &["green", "unused"]),
        ])
    );
    // Faces index the object's list.
    assert_eq!(blender[1].material_indices.as_deref(), Some(&[1][..]));
    assert_eq!(blender[2].material_indices.as_deref(), Some(&[0][..]));
    for mesh in &blender {
        mesh.validate().unwrap();
    }
    assert_eq!(
        names(&read(ObjectRule::Plain)),
        owned(&[
            ("kept", &["carried"]),
            ("renamed", &["green"]),
            ("after", &["green"]),
        ])
    );
}

/// Read leniently, a face with an index out of range (or 0) is left out
/// with a warning, as Blender's importer leaves it out; the other faces
/// keep their elements, those of other objects too; normal indices in a
/// file without normals are ignored.
#[test]
fn faces_with_an_index_out_of_range_are_skipped() {
    let scene = parse(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\no a\nv 1 1 0\nv 2 1 0\n\
         f 1/1 2/1 4/1\nf 1/1 2/1 9/1\nf 0/1 1/1 2/1\nf 2/1 3/1 5/1\nf 4/1 5/1 3/7\n\
         f -1/1 -2/1 -9/1\nf 5/1 4/1 3/1\n",
    )
    .unwrap();
    let [a] = &scene.meshes[..] else {
        panic!("{:?}", scene.meshes)
    };
    assert_eq!(a.name, "a");
    assert_eq!(&a.face_offsets[..], &[0, 3, 6, 9]);
    let corner = |c: usize| a.positions[a.position_indices[c] as usize];
    let used: Vec<[f32; 3]> = (0..9).map(corner).collect();
    let [p1, p2, p3, p4, p5] = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
        [2.0, 1.0, 0.0],
    ];
    assert_eq!(used, [p1, p2, p4, p2, p3, p5, p5, p4, p3]);
    assert_eq!(a.uv_indices.as_deref().map(<[u32]>::len), Some(9));
    a.validate().unwrap();
    assert_eq!(
        scene.warnings,
        [ReadWarning {
            path: None,
            line: 9,
            what: "a face with an index out of range or 0 skipped".into(),
            count: 4,
        }]
    );
    let scene = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2//1 3//1\nf 1 2 3\n").unwrap();
    let mesh = &scene.meshes[0];
    assert_eq!(&mesh.face_offsets[..], &[0, 3, 6]);
    assert!(mesh.normals.is_none() && mesh.normal_indices.is_none());
    assert_eq!(
        scene.warnings[0].what,
        "normal indices ignored: the file has no normals (vn)"
    );
    // UV indices likewise, in faces of one layout and of several.
    let scene =
        parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2/2 3/3\nf 1 2 3\nf 1/1/1 2/1/1 3/1/1\n").unwrap();
    let mesh = &scene.meshes[0];
    assert_eq!(&mesh.face_offsets[..], &[0, 3, 6, 9]);
    assert!(mesh.uvs.is_none() && mesh.uv_indices.is_none());
    assert_eq!(scene.warnings.len(), 2, "{:?}", scene.warnings);
    assert_eq!(
        scene.warnings[0].what,
        "UV indices ignored: the file has no UVs (vt)"
    );
    // A file of nothing but faces skipped has no objects.
    assert!(
        parse("vt 0 0\nf 1/-1 1/-1 1/-2\n")
            .unwrap()
            .meshes
            .is_empty()
    );
}

/// Blender's `use_split_objects` and `use_split_groups`: objects start at
/// `o`, at `g`, at both or at neither, each with the smooth state off.
#[test]
fn blender_objects_split_by_o_and_g() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 1 0\nv 2 2 0\n\
                f 1 2 3\no A\ns 1\ng g1\nf 1 2 3\ng g2\nf 2 3 4\no B\nf 4 5 6\n\
                g off\nf 1 5 6\ng g1\nf 3 4 5\n";
    let read = |split_objects, split_groups| {
        let options = ReadOptions {
            objects: ObjectRule::Blender {
                split_objects,
                split_groups,
                rational_curves: true,
                whole_lines: true,
            },
            ..ReadOptions::default()
        };
        let scene = read_bytes(text.as_bytes(), &options).unwrap();
        let smooth = |m: &Mesh| -> Vec<u32> {
            let faces = m.face_offsets.len() - 1;
            (0..faces)
                .map(|f| m.smooth.as_ref().map_or(0, |s| s[f]))
                .collect()
        };
        let objects: Vec<(String, usize, Vec<u32>)> = scene
            .meshes
            .iter()
            .map(|m| (m.name.to_string(), m.face_offsets.len() - 1, smooth(m)))
            .collect();
        objects
    };
    let owned = |list: &[(&str, usize, &[u32])]| -> Vec<(String, usize, Vec<u32>)> {
        list.iter()
            .map(|(n, f, s)| (n.to_string(), *f, s.to_vec()))
            .collect()
    };
    assert_eq!(
        read(true, false),
        owned(&[("", 1, &[0]), ("A", 2, &[1, 1]), ("B", 3, &[0, 0, 0])])
    );
    // (Blender then validates the mesh, and so leaves out the second `f 1 2 3`.)
    assert_eq!(read(false, false), owned(&[("", 6, &[0, 1, 1, 1, 1, 1])]));
    assert_eq!(
        read(true, true),
        owned(&[
            ("", 1, &[0]),
            ("g1", 1, &[0]),
            ("g2", 1, &[0]),
            ("B", 1, &[0]),
            ("off", 1, &[0]),
            ("g1", 1, &[0]),
        ])
    );
    assert_eq!(
        read(false, true),
        owned(&[
            ("", 1, &[0]),
            ("g1", 1, &[0]),
            ("g2", 2, &[0, 0]),
            ("off", 1, &[0]),
            ("g1", 1, &[0]),
        ])
    );
}

/// By Blender's rule an object's positions come in file order, those it
/// uses from another object's among its own; plainly, its own come first.
#[test]
fn blender_objects_keep_their_positions_in_file_order() {
    let text = "o first\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n\
                o second\nv 5 0 0\nv 6 0 0\nf 4 2 1\nl 5 3\n";
    let read = |objects| {
        let options = ReadOptions {
            objects,
            ..ReadOptions::default()
        };
        read_bytes(text.as_bytes(), &options)
            .unwrap()
            .meshes
            .remove(1)
    };
    let blender = read(ObjectRule::BLENDER);
    let xs: Vec<f32> = blender.positions.iter().map(|p| p[0]).collect();
    assert_eq!(xs, [0.0, 1.0, 0.0, 5.0, 6.0]);
    assert_eq!(&blender.position_indices[..], &[3, 1, 0]);
    assert_eq!(blender.edges.as_deref(), Some(&[[4, 2]][..]));
    blender.validate().unwrap();
    let plain = read(ObjectRule::Plain);
    let xs: Vec<f32> = plain.positions.iter().map(|p| p[0]).collect();
    assert_eq!(xs, [5.0, 6.0, 1.0, 0.0, 0.0]);
    assert_eq!(&plain.position_indices[..], &[0, 2, 3]);
}

/// Blender's `o` ends the `g` group's name but not its index: an object's
/// faces before its first `g` take the index the last group had in the
/// object before, in their own object's list (plainly, the group carries
/// over by name).
#[test]
fn blender_objects_take_the_group_index_of_the_object_before() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\no A\ng one\nf 1 2 3\ng two\nf 1 2 4\n\
                o B\nf 2 3 4\ng other\nf 1 2 4\ng last\nf 1 3 4\n";
    let groups = |objects| {
        let options = ReadOptions {
            objects,
            ..ReadOptions::default()
        };
        let scene = read_bytes(text.as_bytes(), &options).unwrap();
        let b = &scene.meshes[1];
        b.validate().unwrap();
        let names: Vec<String> = b.groups.iter().map(|g| g.to_string()).collect();
        (names, b.group_indices.as_deref().map(<[u32]>::to_vec))
    };
    let owned = |names: &[&str], indices: &[u32]| {
        let names = names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        (names, Some(indices.to_vec()))
    };
    assert_eq!(
        groups(ObjectRule::BLENDER),
        owned(&["other", "last"], &[1, 0, 1])
    );
    assert_eq!(
        groups(ObjectRule::Plain),
        owned(&["two", "other", "last"], &[0, 1, 2])
    );
}

/// By Blender's rule an object's faces of every layout make one mesh, in
/// file order, a corner without a UV or normal pointing at one of zeros
/// (within a face too), and every face has normals when the file has some;
/// plainly, a mesh per layout, and corners that mix them are an error.
#[test]
fn blender_objects_are_one_mesh_whatever_their_faces_layouts() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0.5 0.5\nvn 0 0 1\n\
                f 1/1 2/1 3/1\nf 1 2 3\nf 1//1 2//1 3//1\no b\nf 3 2 1\n";
    let options = |objects| ReadOptions {
        objects,
        ..ReadOptions::default()
    };
    let scene = read_bytes(text.as_bytes(), &options(ObjectRule::BLENDER)).unwrap();
    let [mixed, b] = &scene.meshes[..] else {
        panic!("{} meshes", scene.meshes.len())
    };
    mixed.validate().unwrap();
    assert_eq!(mixed.uvs.as_deref(), Some(&[[0.5, 0.5], [0.0, 0.0]][..]));
    assert_eq!(
        mixed.uv_indices.as_deref(),
        Some(&[0, 0, 0, 1, 1, 1, 1, 1, 1][..])
    );
    assert_eq!(
        mixed.normals.as_deref(),
        Some(&[[0.0, 0.0, 1.0], [0.0; 3]][..])
    );
    assert_eq!(
        mixed.normal_indices.as_deref(),
        Some(&[1, 1, 1, 1, 1, 1, 0, 0, 0][..])
    );
    // No normal indices of its own, normals of zeros.
    b.validate().unwrap();
    assert_eq!(b.normals.as_deref(), Some(&[[0.0; 3]][..]));
    assert_eq!(b.uv_indices, None);
    let plain = read_bytes(text.as_bytes(), &options(ObjectRule::Plain)).unwrap();
    assert_eq!(plain.meshes.len(), 4);
    let corners = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2 3/1\n";
    let blender = read_bytes(corners.as_bytes(), &options(ObjectRule::BLENDER)).unwrap();
    assert_eq!(
        blender.meshes[0].uv_indices.as_deref(),
        Some(&[0, 1, 0][..])
    );
    let error = read_bytes(corners.as_bytes(), &options(ObjectRule::Plain)).unwrap_err();
    assert!(error.to_string().contains("must all have UVs"), "{error}");
}

/// By Blender's rule a vertex without a color, in a mesh with colors, has
/// -1s (Blender's importer tells them apart); plainly it is black.
#[test]
fn blender_vertices_without_a_color_are_told_apart() {
    let text = "v 0 0 0 1 0 0\nv 1 0 0\nv 0 1 0 0 0 1\nf 1 2 3\n";
    let colors = |objects| {
        let options = ReadOptions {
            objects,
            ..ReadOptions::default()
        };
        let scene = read_bytes(text.as_bytes(), &options).unwrap();
        scene.meshes[0].colors.as_deref().unwrap().to_vec()
    };
    let without = |none: f32| vec![[1.0, 0.0, 0.0], [none; 3], [0.0, 0.0, 1.0]];
    assert_eq!(colors(ObjectRule::BLENDER), without(-1.0));
    assert_eq!(colors(ObjectRule::Plain), without(0.0));
}

/// By Blender's rule a face skipped keeps the positions its importer keeps
/// (of its corners up to the first index out of range, that corner's too
/// if its position is in range), and a face of 1 or 2 corners is skipped
/// keeping its positions: the mesh's points, written as `p`.
#[test]
fn blender_skipped_faces_keep_their_positions_as_points() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 2 0\nvt 0 0\n\
                f 1 2 3\nf 4 9 5\nf 5/1 4/7 2/1\nf 2 3\n";
    let read = |objects| {
        let options = ReadOptions {
            objects,
            ..ReadOptions::default()
        };
        read_bytes(text.as_bytes(), &options).unwrap()
    };
    let scene = read(ObjectRule::BLENDER);
    let mesh = &scene.meshes[0];
    mesh.validate().unwrap();
    assert_eq!(&mesh.face_offsets[..], &[0, 3]);
    assert_eq!(mesh.points.as_deref(), Some(&[1, 2, 3, 4][..]));
    let warnings: Vec<(u64, &str, u64)> = scene
        .warnings
        .iter()
        .map(|w| (w.line, &*w.what, w.count))
        .collect();
    assert_eq!(
        warnings,
        [
            (10, "a face with 2 corners skipped, its positions kept", 1),
            (8, "a face with an index out of range or 0 skipped", 2),
        ]
    );
    let mut written = Vec::new();
    crate::obj::write_to(&mut written, &scene.meshes, &Default::default()).unwrap();
    let written = String::from_utf8(written).unwrap();
    assert!(
        written.ends_with("f 1 2 3\np 2\np 3\np 4\np 5\n"),
        "{written}"
    );
    let plain = read(ObjectRule::Plain);
    assert_eq!(plain.meshes[0].points, None);
    assert_eq!(plain.meshes[0].edges.as_deref(), Some(&[[1, 2]][..]));
}

/// `p` statements: each object's points (relative, from other objects,
/// between lines), written back as `p`; an index out of range is an error
/// naming the line; Blender's rule skips them, as its importer does.
#[test]
fn points_are_read_per_object() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\no a\nv 5 5 5\nl 1 2\np 4 -2\nl 2 3 1\np 1\n\
                o b\nv 7 7 7\np 5 1\n";
    let scene = parse(text).unwrap();
    let [a, b] = &scene.meshes[..] else {
        panic!("{} meshes", scene.meshes.len())
    };
    a.validate().unwrap();
    b.validate().unwrap();
    assert_eq!(a.edges.as_deref(), Some(&[[1, 2], [2, 3], [3, 1]][..]));
    // a's own position is 0 (5 5 5), those it uses from before come after.
    assert_eq!(a.points.as_deref(), Some(&[0, 3, 1][..]));
    assert_eq!(b.points.as_deref(), Some(&[0, 1][..]));
    assert_eq!(b.positions[1], [0.0, 0.0, 0.0]);
    let mut written = Vec::new();
    crate::obj::write_to(&mut written, &scene.meshes, &Default::default()).unwrap();
    let again = read_bytes(&written, &ReadOptions::default()).unwrap();
    assert_eq!(again.meshes[0].points, a.points);
    let error = parse("v 0 0 0\np 1\np 1 7\n").unwrap_err().to_string();
    assert!(
        error.starts_with("line 3: position index 7 is out of range"),
        "{error}"
    );
    let blender = read_blender(text);
    assert!(blender.meshes.iter().all(|m| m.points.is_none()));
}

/// By Blender's rule, read leniently, numbers are read as its importer
/// reads them: `1.#IND` is 1 and what follows 0, a missing one 0, a color
/// with a number that is none (or below 0) no color; plainly they are
/// errors.
#[test]
fn blender_numbers_are_read_as_its_importer_reads_them() {
    let text =
        "v 1.#IND -1.#IND 1.#IND\nv 1 2\nv 0 1 0 0.5 x 0.5\nvn 0 0\nvt 0.5\nf 1/1/1 2/1/1 3/1/1\n";
    let options = |strict| ReadOptions {
        objects: ObjectRule::BLENDER,
        strict,
        ..ReadOptions::default()
    };
    let scene = read_bytes(text.as_bytes(), &options(false)).unwrap();
    let mesh = &scene.meshes[0];
    assert_eq!(
        &mesh.positions[..],
        &[[1.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.0, 1.0, 0.0]]
    );
    assert_eq!(mesh.colors, None);
    assert_eq!(mesh.normals.as_deref(), Some(&[[0.0; 3]][..]));
    assert_eq!(mesh.uvs.as_deref(), Some(&[[0.5, 0.0]][..]));
    assert!(read_bytes(text.as_bytes(), &options(true)).is_err());
    assert!(parse(text).is_err());
}

/// An error names the line of the statement, by Blender's rule too, where
/// faces of 2 corners are faces and `p` statements are skipped.
#[test]
fn blender_errors_name_their_line() {
    let text = "v 0 0 0\nv 1 0 0\nf 1 2\np 1\nl 1 2\nl 1 9\n";
    for objects in [ObjectRule::Plain, ObjectRule::BLENDER] {
        let options = ReadOptions {
            objects,
            ..ReadOptions::default()
        };
        let error = read_bytes(text.as_bytes(), &options)
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("line 6: position index 9"),
            "{objects:?}: {error}"
        );
    }
}

#[test]
fn free_form_curves_are_read_with_their_points_weights_and_knots() {
    let text = "v 0 0 0\nv 1 0 0 0.5\nv 1 1 0\nv 0 1 0\ng G\ncstype rat bspline\ndeg 2\n\
                curv 0.0 2.0 1 2 -2 -1\nparm u 0 0 0 1 1 1\nparm v 0 1\nend\nsurf 0 1 0 1 1 2\n\
                o M\nf 1 2 3\ncstype bezier\ndeg 3\n";
    let read = |objects, threads| read_by(text, objects, Some(threads));
    for threads in [1, 3] {
        let plain = read(ObjectRule::Plain, threads);
        assert_eq!(plain.curves.len(), 1);
        let curve = &plain.curves[0];
        assert_eq!(
            (curve.name.as_str(), curve.rational, curve.degree),
            ("G", true, 2)
        );
        assert_eq!(curve.range, [0.0, 2.0]);
        assert_eq!(curve.controls, [0, 1, 2, 3]);
        assert_eq!(curve.points[1], [1.0, 0.0, 0.0]);
        assert_eq!(curve.weights, [1.0, 0.5, 1.0, 1.0]);
        assert_eq!(curve.knots, [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
        assert_eq!(curve.meshes_before, 0);
        let warned: Vec<&str> = plain.warnings.iter().map(|w| w.what.as_str()).collect();
        assert!(warned.contains(&FREE_FORM_SKIPPED_TEXT), "{warned:?}");
        assert!(
            warned.contains(&crate::obj::CURVE_TYPE_SKIPPED),
            "{warned:?}"
        );
        // Blender's rule: the object of positions alone (before the first
        // `o`) becomes the curve, keeping its name (none: the file's).
        let blender = read(ObjectRule::BLENDER, threads);
        assert_eq!(blender.curves.len(), 1);
        assert_eq!(
            (
                blender.curves[0].name.as_str(),
                blender.curves[0].group.as_str()
            ),
            ("", "G")
        );
        assert_eq!(blender.meshes.len(), 1);
        assert_eq!(blender.meshes[0].name, "M");
    }
}

#[test]
fn blender_reads_damaged_curve_statements_as_its_importer_does() {
    // The range read as two numbers together (a bad first leaves both 0 and
    // the points after it unread); points up to the first non-integer;
    // `parm u` with the `u` as its first character, knots up to the first
    // non-number and added to those before; `deg` an integer's digits.
    let text = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n\
                o A\ncstype bspline\ndeg 2.5\ncurv 0 1 1 +2 3.5 4\nparm u0 1\nparm u 2 x 3\nend\n\
                o B\ncstype bspline\ndeg x\ncurv a 1 1 2 3\nparm v 0 1\nend\n";
    let scene = read_blender(text);
    assert_eq!(scene.curves.len(), 2);
    let a = &scene.curves[0];
    assert_eq!((a.name.as_str(), a.degree, a.range), ("A", 2, [0.0, 1.0]));
    assert_eq!(a.controls, [0, 1, 2]);
    assert_eq!(a.knots, [0.0, 1.0, 2.0]);
    let b = &scene.curves[1];
    assert_eq!((b.name.as_str(), b.degree, b.range), ("B", 3, [0.0, 0.0]));
    assert!(b.controls.is_empty() && b.knots.is_empty());
}

#[test]
fn blender_faces_name_only_elements_declared_before_them() {
    // A face naming a position or UV declared after it: kept by the plain
    // rule, skipped by Blender's (its object listed in faces_skipped), on
    // any number of threads; a line may still name a later position.
    let text = "v 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\no A\nf 1 2 3\no B\nf 1 2 4\nf 1/2 2/1 3/1\n\
                l 1 4\nv 0 1 0\nvt 1 1\nf 1 2 4\nf 1/2 2/1 3/1\n";
    for threads in [1, 3] {
        let read = |objects| read_by(text, objects, Some(threads));
        let plain = read(ObjectRule::Plain);
        let faces: usize = plain.meshes.iter().map(|m| m.face_count()).sum();
        assert_eq!(faces, 5);
        assert!(plain.faces_skipped.is_empty());
        let blender = read(ObjectRule::BLENDER);
        let counts: Vec<usize> = blender.meshes.iter().map(|m| m.face_count()).collect();
        assert_eq!(counts, [1, 2]);
        assert_eq!(blender.faces_skipped, [1]);
        assert_eq!(blender.meshes[1].edges.as_deref().map(<[_]>::len), Some(1));
    }
}

const FREE_FORM_SKIPPED_TEXT: &str = crate::obj::FREE_FORM_SKIPPED;

#[test]
fn blender_curves_take_the_faces_after_them_and_bad_indices_are_skipped() {
    let text = "v 0 0 0\nv 1 0 0\nv 1 1 0\no A\nf 1 2 3\ncstype bspline\ncurv 0 1 1 2 3\n\
                f 1 2 3\nl 1 2\no B\nf 1 2 3\ncstype bspline\ncurv 0 1 1 7\nend\n";
    let scene = read_blender(text);
    // A curve after a mesh is an object of its own, named New object, made
    // after A; the face and line given to it are dropped.
    assert_eq!(scene.curves.len(), 1);
    assert_eq!(scene.curves[0].name, "New object");
    assert_eq!(scene.curves[0].meshes_before, 1);
    assert_eq!(
        scene
            .meshes
            .iter()
            .map(|m| m.name.as_ref())
            .collect::<Vec<_>>(),
        ["A", "B"]
    );
    assert_eq!(scene.meshes[0].face_offsets.len(), 2);
    let warning = |what: &str| {
        scene
            .warnings
            .iter()
            .find(|w| w.what.starts_with(what))
            .cloned()
    };
    assert_eq!(warning("faces and lines given").unwrap().count, 2);
    let skipped = warning("free-form curve with a control point").unwrap();
    assert_eq!(skipped.line, 13);
    let strict = ReadOptions {
        objects: ObjectRule::BLENDER,
        materials: false,
        strict: true,
        ..ReadOptions::default()
    };
    let error = read_bytes(text.as_bytes(), &strict)
        .unwrap_err()
        .to_string();
    assert!(error.contains("line 13"), "{error}");
}

#[test]
fn blender_lines_by_each_rule() {
    let text = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nl 1 2 3\nl 4\nl 3/1 4\n";
    let rule = |threads, whole_lines| ReadOptions {
        objects: ObjectRule::Blender {
            split_objects: true,
            split_groups: false,
            rational_curves: whole_lines,
            whole_lines,
        },
        threads: Some(threads),
        materials: false,
        ..ReadOptions::default()
    };
    let edges = |whole_lines| {
        let options = rule(2, whole_lines);
        let scene = read_bytes(text.as_bytes(), &options).unwrap();
        let mesh = &scene.meshes[0];
        let global = |v: u32| mesh.positions[v as usize][0] + 2.0 * mesh.positions[v as usize][1];
        let edges: Vec<[f32; 2]> = (mesh.edges.as_deref().unwrap().iter())
            .map(|e| [global(e[0]), global(e[1])])
            .collect();
        (edges, mesh.points.as_deref().map(<[u32]>::len))
    };
    // 4.5 on: every pair, and the point of a line of one kept (loose).
    let (whole, points) = edges(true);
    assert_eq!(whole, [[0.0, 1.0], [1.0, 3.0], [3.0, 2.0]]);
    assert_eq!(points, Some(1));
    // 3.4: the first pair alone; a line of one point, or whose first is not
    // a plain index, ends at the last vertex (0 1 0: 2.0 here).
    let (pairs, _) = edges(false);
    assert_eq!(pairs, [[0.0, 1.0], [2.0, 2.0], [3.0, 2.0]]);
    // From 4.5 a line ends at its first point that is not an integer or
    // is 0, and without a first point is skipped.
    let text = "v 0 0 0\nv 1 0 0\nl 1 2 x 1\nl 2 0 1\nl 0 1\nl +\n";
    let scene = read_bytes(text.as_bytes(), &rule(1, true)).unwrap();
    assert_eq!(scene.meshes[0].edges.as_deref(), Some(&[[0, 1]][..]));
    assert_eq!(scene.meshes[0].points.as_deref(), Some(&[1][..]));
    assert_eq!(scene.warnings[0].count, 2);
    // An index 0 (3.4), an index out of range (4.5), is found again at its
    // line on any number of threads (every `l` is a line by 3.4's, one with
    // a first point from 4.5).
    for (whole_lines, found) in [
        (false, "line 5: index 0"),
        (true, "line 5: position index 3"),
    ] {
        for threads in [1, 2] {
            let options = rule(threads, whole_lines);
            let text = "v 0 0 0\nl 1\nl\nl x 1\nl 0 1\nl 1 3\n";
            let text = if whole_lines {
                text.replace("l 0 1\n", "")
            } else {
                text.into()
            };
            let error = read_bytes(text.as_bytes(), &options)
                .unwrap_err()
                .to_string();
            assert!(error.contains(found), "{error}");
        }
    }
}
