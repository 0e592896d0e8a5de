//! `oxport obj ...`

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

use clap::{Args, Subcommand};
use oxport::obj::{self, Precision, WriteOptions};
use oxport::{Material, Mesh, synth};

use crate::progress::{bar, megabytes, memory, reset_peak_memory};

#[derive(Subcommand)]
pub enum Command {
    /// Write a procedural scene as OBJ (and its MTL)
    Write(WriteArgs),
    /// Read an OBJ file on all cores and describe it: objects, counts,
    /// materials, bounds, time
    Info(InfoArgs),
    /// Read an OBJ file (and the MTL files it names) and write it again, with
    /// other precisions: OBJ to OBJ. Comments that open the file are kept; the
    /// materials go to an MTL file beside OUT, named after it. What the read
    /// passes over is printed as warnings (`--strict` refuses it).
    Convert(ConvertArgs),
}

#[derive(Args)]
pub struct ConvertArgs {
    /// The OBJ file to read
    pub input: PathBuf,
    /// The OBJ file to write
    pub output: PathBuf,
    /// Decimals of positions: 0 to 9, or `shortest` (round-trip exact)
    #[arg(long, default_value_t = WriteOptions::default().precision)]
    pub precision: Precision,
    /// Decimals of UVs
    #[arg(long, default_value_t = WriteOptions::default().uv_precision)]
    pub uv_precision: Precision,
    /// Decimals of normals
    #[arg(long, default_value_t = WriteOptions::default().normal_precision)]
    pub normal_precision: Precision,
    /// Threads for reading and writing (default: one per core)
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub reading: ReadingArgs,
}

/// How OBJ files are read (the library's `obj::ReadOptions`).
#[derive(Args)]
pub struct ReadingArgs {
    /// Refuse what is otherwise read leniently and reported as a warning:
    /// unknown statements, faces of fewer than 3 corners, lines of fewer than
    /// 2 points, MTL files missing, malformed or outside the MTL root
    #[arg(long)]
    pub strict: bool,
    /// Do not read the MTL files that `mtllib` statements name
    #[arg(long)]
    pub no_mtl: bool,
    /// The folder MTL files may be read from, subfolders included (default:
    /// the OBJ file's folder; `/` allows any path)
    #[arg(long, value_name = "DIR")]
    pub mtl_root: Option<PathBuf>,
}

impl ReadingArgs {
    fn options(&self, threads: Option<usize>) -> obj::ReadOptions {
        obj::ReadOptions {
            threads,
            strict: self.strict,
            materials: !self.no_mtl,
            mtl_root: self.mtl_root.clone(),
            ..obj::ReadOptions::default()
        }
    }
}

#[derive(Args)]
pub struct InfoArgs {
    /// The OBJ file
    pub file: PathBuf,
    /// Parsing threads (default: one per core)
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub reading: ReadingArgs,
    /// List every object and every warning (default: the first 20)
    #[arg(long)]
    pub all: bool,
}

#[derive(Args)]
pub struct WriteArgs {
    /// The scene: `sphere:LEVEL` (a UV sphere with 2^(2 LEVEL + 1) faces; 10 gives 2M)
    /// or `city:OBJECTS[:SEED]` (buildings with 16 materials, n-gons, smooth and flat faces)
    #[arg(long)]
    pub scene: Scene,
    /// The OBJ file to write; the MTL goes beside it
    #[arg(long)]
    pub out: PathBuf,
    /// Decimals of positions: 0 to 9, or `shortest` (round-trip exact)
    #[arg(long, default_value_t = WriteOptions::default().precision)]
    pub precision: Precision,
    /// Encoding threads (default: one per core)
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write around the page cache (O_DIRECT, Linux; falls back to buffered
    /// writes where the file system refuses): faster for big files on machines
    /// where the kernel hands out cache pages slowly
    #[arg(long)]
    pub direct: bool,
}

/// A procedural scene named on the command line.
#[derive(Clone, Debug)]
pub enum Scene {
    Sphere(u32),
    City { objects: usize, seed: u64 },
}

impl FromStr for Scene {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let number = |s: &str, what: &str| {
            s.parse::<u64>()
                .map_err(|_| format!("{what} must be a whole number, not {s:?}"))
        };
        match parts.as_slice() {
            ["sphere", level] => {
                let level = number(level, "the sphere level")?;
                if !(1..=12).contains(&level) {
                    return Err(format!("the sphere level must be 1 to 12, not {level}"));
                }
                Ok(Scene::Sphere(level as u32))
            }
            ["city", objects] => Ok(Scene::City {
                objects: number(objects, "the number of objects")? as usize,
                seed: 1,
            }),
            ["city", objects, seed] => Ok(Scene::City {
                objects: number(objects, "the number of objects")? as usize,
                seed: number(seed, "the seed")?,
            }),
            _ => Err(format!(
                "{text:?} is not a scene: use sphere:LEVEL or city:OBJECTS[:SEED]"
            )),
        }
    }
}

impl std::fmt::Display for Scene {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scene::Sphere(level) => write!(f, "sphere:{level}"),
            Scene::City { objects, seed } => write!(f, "city:{objects}:{seed}"),
        }
    }
}

impl Scene {
    pub fn build(&self) -> (Vec<Mesh<'static>>, Vec<Material>) {
        match *self {
            Scene::Sphere(level) => (vec![synth::sphere(level)], Vec::new()),
            Scene::City { objects, seed } => {
                (synth::city(objects, seed), synth::city_materials(seed))
            }
        }
    }
}

pub fn run(command: Command) -> oxport::Result<()> {
    match command {
        Command::Info(args) => info(&args),
        Command::Convert(args) => convert(&args),
        Command::Write(args) => {
            let (meshes, materials) = args.scene.build();
            let summary = export(
                &meshes,
                library(materials).as_ref(),
                &args.out,
                WriteOptions {
                    precision: args.precision,
                    threads: args.threads,
                    direct: args.direct,
                    header: vec!["oxport".into()],
                    ..WriteOptions::default()
                },
                "writing",
            )?;
            println!("{summary}");
            Ok(())
        }
    }
}

/// `oxport obj convert`: reads the file and the MTL files it names, writes both again.
fn convert(args: &ConvertArgs) -> oxport::Result<()> {
    let options = WriteOptions {
        precision: args.precision,
        uv_precision: args.uv_precision,
        normal_precision: args.normal_precision,
        threads: args.threads,
        ..WriteOptions::default()
    };
    let progress = bar("converting");
    let start = Instant::now();
    let done = obj::convert(
        &args.input,
        &args.output,
        &args.reading.options(args.threads),
        &options,
        |done, total| {
            progress.set_length(total);
            progress.set_position(done);
        },
    );
    progress.finish_and_clear();
    let done = done?;
    let seconds = start.elapsed().as_secs_f64();
    print_warnings(&mut std::io::stderr(), &done.warnings, 20);
    println!(
        "{} → {}: {} objects, {} statements skipped, {} materials; {:.1} MB → {:.1} MB in {seconds:.3} s on {} threads",
        args.input.display(),
        args.output.display(),
        done.written.objects,
        done.skipped,
        done.materials,
        megabytes(done.bytes_read),
        megabytes(done.written.bytes),
        done.written.threads,
    );
    Ok(())
}

/// `oxport obj info`: reads the file and prints what it holds.
fn info(args: &InfoArgs) -> oxport::Result<()> {
    let start = Instant::now();
    let scene = obj::read(&args.file, &args.reading.options(args.threads))?;
    let seconds = start.elapsed().as_secs_f64();
    let size = oxport::source::open(&args.file)?
        .size()
        .map_err(|e| oxport::Error::io_at(&args.file, e))?;
    let sum = |f: fn(&Mesh) -> usize| scene.meshes.iter().map(f).sum::<usize>();
    let mut low = [f32::INFINITY; 3];
    let mut high = [f32::NEG_INFINITY; 3];
    for p in scene.meshes.iter().flat_map(|m| m.positions.iter()) {
        for k in 0..3 {
            low[k] = low[k].min(p[k]);
            high[k] = high[k].max(p[k]);
        }
    }
    let mut materials: Vec<&str> = scene
        .meshes
        .iter()
        .flat_map(|m| m.materials.iter().map(|n| n.as_ref()))
        .collect();
    materials.sort_unstable();
    materials.dedup();
    println!("{}: {:.1} MB", args.file.display(), megabytes(size));
    println!(
        "{} objects, {} vertices, {} faces, {} corners, {} UVs, {} normals, {} loose edges",
        scene.meshes.len(),
        sum(|m| m.positions.len()),
        sum(|m| m.face_count()),
        sum(|m| m.corner_count()),
        sum(|m| m.uvs.as_ref().map_or(0, |u| u.len())),
        sum(|m| m.normals.as_ref().map_or(0, |n| n.len())),
        sum(|m| m.edges.as_ref().map_or(0, |e| e.len())),
    );
    println!(
        "{} materials used, {} defined in {} MTL files read (mtllib: {}), {} statements skipped",
        materials.len(),
        scene.materials.len(),
        scene.mtl_files.len(),
        if scene.mtllibs.is_empty() {
            "none".to_string()
        } else {
            scene.mtllibs.join(", ")
        },
        scene.skipped
    );
    let most = if args.all { usize::MAX } else { 20 };
    print_warnings(&mut std::io::stdout(), &scene.warnings, most);
    if low[0] <= high[0] {
        println!("bounds: {low:?} to {high:?}");
    }
    let shown = if args.all { scene.meshes.len() } else { 20 };
    for mesh in scene.meshes.iter().take(shown) {
        println!(
            "  {:?}: {} vertices, {} faces",
            mesh.name,
            mesh.positions.len(),
            mesh.face_count()
        );
    }
    if scene.meshes.len() > shown {
        println!(
            "  ... {} more (--all lists them)",
            scene.meshes.len() - shown
        );
    }
    println!(
        "read in {seconds:.3} s ({:.0} MB/s)",
        size as f64 / 1e6 / seconds.max(1e-9)
    );
    Ok(())
}

/// Prints the first `most` warnings (each kind once, with its first line and
/// count) to `out`.
fn print_warnings(out: &mut dyn std::io::Write, warnings: &[obj::ReadWarning], most: usize) {
    // Nothing to do about a closed output but stop printing.
    for warning in warnings.iter().take(most) {
        let _ = writeln!(out, "warning: {warning}");
    }
    if warnings.len() > most {
        let more = warnings.len() - most;
        let _ = writeln!(
            out,
            "warning: ... {more} more kinds (`oxport obj info --all` lists them)"
        );
    }
}

/// The MTL file of a generated scene's materials, if it has any.
pub fn library(materials: Vec<oxport::Material>) -> Option<obj::MaterialLibrary> {
    (!materials.is_empty()).then(|| obj::MaterialLibrary {
        materials,
        header: vec!["oxport".into()],
    })
}

/// Writes the meshes with a progress bar, and with `library` their
/// materials into an MTL file beside them named after `out`; describes what
/// was done.
pub fn export(
    meshes: &[Mesh],
    library: Option<&obj::MaterialLibrary>,
    out: &std::path::Path,
    options: WriteOptions,
    label: &str,
) -> oxport::Result<String> {
    let options = WriteOptions {
        mtllib: if library.is_some() {
            None
        } else {
            options.mtllib
        },
        ..options
    };
    let progress = bar(label);
    reset_peak_memory();
    let (before, _) = memory();
    let start = Instant::now();
    let summary = obj::write_with_mtl(out, meshes, library, &options, |done, total| {
        progress.set_length(total);
        progress.set_position(done);
    });
    progress.finish_and_clear();
    let summary = summary?;
    let seconds = start.elapsed().as_secs_f64();
    let (_, peak) = memory();
    Ok(format!(
        "{}: {} objects, {} vertices, {} faces, {:.1} MB in {:.3} s ({:.0} MB/s) on {} threads; \
         memory: scene {:.0} MB, peak during the write {:.0} MB (+{:.0} MB)",
        out.display(),
        summary.objects,
        summary.vertices,
        summary.faces,
        megabytes(summary.bytes),
        seconds,
        megabytes(summary.bytes) / seconds,
        summary.threads,
        megabytes(before),
        megabytes(peak),
        megabytes(peak.saturating_sub(before)),
    ))
}
