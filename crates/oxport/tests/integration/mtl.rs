//! MTL files read and written again: the same bytes (those Blender's layout
//! writes); errors name the file and line.

use oxport::obj;

#[test]
fn an_mtl_file_reads_and_writes_back_the_same_bytes() {
    let text = "# Blender 3.4.1 MTL File: 'scene.blend'\n# www.blender.org\n\n\
                newmtl brick\nNs 250.000000\nKa 1.000000 1.000000 1.000000\n\
                Kd 0.800000 0.300000 0.100000\nKs 0.500000 0.500000 0.500000\n\
                Ke 0.000000 0.000000 0.000000\nNi 1.450000\nd 1.000000\nillum 2\n\
                map_Kd -o 0.5 0 0 -s 2 2 1 textures/brick wall.png\nmap_Bump -bm 0.300000 bump.png\n\n\
                newmtl glass\nNs 900.000000\nd 0.200000\nillum 4\n";
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("scene.mtl");
    std::fs::write(&path, text).unwrap();
    let library = obj::read_mtl(&path).unwrap();
    assert_eq!(library.materials.len(), 2);
    assert_eq!(library.materials[0].maps[0].path, "textures/brick wall.png");
    assert_eq!(library.materials[1].diffuse, None);
    let again = folder.path().join("again.mtl");
    let dialect = obj::Dialect::default();
    obj::write_mtl(&again, &library.materials, &library.header, dialect).unwrap();
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
}

#[test]
fn mtl_errors_name_the_file_and_the_line() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("bad.mtl");
    std::fs::write(&path, "newmtl a\nKd 1 1\n").unwrap();
    let error = obj::read_mtl(&path).unwrap_err().to_string();
    assert_eq!(
        error,
        format!("{}:2: Kd wants 3 numbers, not 2", path.display())
    );
}
