//! `oxport exr ...`: OpenEXR images.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use oxport::batch::{Conversion, Job, Output, located};
use oxport::exr::{self, Compression, ConvertOptions, Reader};

use crate::cmd::batch::{each_file, finish, on_cluster};
use crate::progress::bar;

#[derive(Subcommand)]
pub enum Command {
    /// Describe OpenEXR files: every header attribute, channels, chunks and
    /// the compression ratio
    Info(InfoArgs),
    /// Recompress OpenEXR files (pixels and attributes unchanged, every part
    /// and level kept; or stored as scan lines or other tiles), chunks on
    /// every core; each output is written whole or not at all
    Convert(ConvertArgs),
    /// Compare byte filters and codecs on the images' chunks (16 lines):
    /// ratio and speed per core of every filter × codec × level, checked by
    /// decompressing; a table, and with --out a chart (PNG) and the table as
    /// Markdown
    Lab(LabArgs),
}

#[derive(Args)]
pub struct LabArgs {
    /// The images
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// A directory for lab.png (ratio against speed) and lab.md (the table)
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Timed rounds per cell (the fastest counts)
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
}

#[derive(Args)]
pub struct InfoArgs {
    /// The files
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
}

#[derive(Args)]
pub struct ConvertArgs {
    /// The files to convert, then the output: a file for one input, a
    /// directory (created if missing) for several, where each output takes
    /// its input's name
    #[arg(required = true, num_args = 2.., value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The compression: none, rle, zips, zip (deflate, 16 lines per chunk),
    /// piz (wavelet + Huffman, 32 lines), pxr24 (FLOAT channels keep 24
    /// bits), b44 or b44a (HALF channels in 4×4 blocks, lossy), dwaa or dwab
    /// (DCT of R, G, B, Y, RY, BY, lossy; Nuke's usual choice) or zstd
    /// (OpenEXR 3.5)
    #[arg(short, long, default_value = "zstd", value_parser = parse_compression)]
    pub compression: Compression,
    /// Level: deflate 0-12 for zip, zips and pxr24 (default 4), zstd's levels for
    /// zstd (default 5): the defaults give OpenEXR's bytes
    #[arg(short, long, allow_negative_numbers = true)]
    pub level: Option<i32>,
    /// Store every part as scan lines (a tiled part's full resolution: its
    /// other levels are left out). Default: every part, level and tile as
    /// in the input
    #[arg(long, conflicts_with = "tiles")]
    pub scanlines: bool,
    /// Store every part in tiles of WIDTHxHEIGHT pixels (64x64). A part
    /// keeps its levels when it has the same --levels and --rounding, and
    /// has them made (as exrmaketiled makes them) otherwise
    #[arg(long, value_name = "WIDTHxHEIGHT", value_parser = parse_tiles)]
    pub tiles: Option<(u32, u32)>,
    /// With --tiles: one level, or a mipmap or ripmap of levels
    #[arg(long, default_value = "one", requires = "tiles", value_parser = ["one", "mipmap", "ripmap"])]
    pub levels: String,
    /// With --tiles: level sizes rounded down or up
    #[arg(long, default_value = "down", requires = "tiles", value_parser = ["down", "up"])]
    pub rounding: String,
    /// Threads (default: one per core)
    #[arg(short = 'T', long)]
    pub threads: Option<usize>,
    /// Run on a Dask cluster instead of here: the scheduler's address
    /// (tcp://host:8786), one task per file on its workers (paths they can
    /// see, or fsspec URLs), OUTPUT a directory. Runs the Python package's
    /// `oxport.dask` (`pip install 'oxport[dask]'`; OXPORT_PYTHON names the
    /// interpreter: by default the one the `oxport` command was installed
    /// with, else python3, python on Windows)
    #[arg(long, value_name = "ADDRESS")]
    pub scheduler: Option<String>,
}

fn parse_tiles(text: &str) -> Result<(u32, u32), String> {
    let sides = text
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)));
    match sides {
        Some((w, h)) if w > 0 && h > 0 => Ok((w, h)),
        _ => Err(format!("{text:?}: tiles are WIDTHxHEIGHT, e.g. 64x64")),
    }
}

fn parse_compression(name: &str) -> Result<Compression, String> {
    let method = name.parse::<Compression>().map_err(|e| e.to_string())?;
    if method.can_write() {
        Ok(method)
    } else {
        Err(format!(
            "oxport does not write {method} (it writes {})",
            Compression::writable_names()
        ))
    }
}

pub fn run(command: Command) -> oxport::Result<()> {
    match command {
        Command::Info(args) => info(&args),
        Command::Convert(args) => convert(&args),
        Command::Lab(args) => lab(&args),
    }
}

fn lab(args: &LabArgs) -> oxport::Result<()> {
    let images = args
        .inputs
        .iter()
        .map(|path| exr::read(path, &exr::ReadOptions::default()))
        .collect::<oxport::Result<Vec<_>>>()?;
    let options = oxport_lab::LabOptions {
        rounds: args.rounds,
        ..Default::default()
    };
    let progress = bar("measuring");
    let measures = oxport_lab::run(&images, &options, |done, total| {
        progress.set_length(total as u64);
        progress.set_position(done as u64);
    });
    progress.finish_and_clear();
    let measures = measures?;
    let table = oxport_lab::table(images.len(), &measures);
    print!("{table}");
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| oxport::Error::io_at(dir, e))?;
        oxport::atomic::write_file(&dir.join("lab.md"), |file| {
            use std::io::Write;
            file.write_all(table.as_bytes())
                .map_err(oxport::Error::from)
        })?;
        let title = format!(
            "ratio against speed, {}",
            oxport_lab::describe(images.len(), &measures)
        );
        oxport::atomic::write_file(&dir.join("lab.png"), |file| {
            oxport_lab::chart::draw(&measures, &title, std::io::BufWriter::new(file))
        })?;
        eprintln!(
            "wrote {} and {}",
            dir.join("lab.md").display(),
            dir.join("lab.png").display()
        );
    }
    Ok(())
}

fn info(args: &InfoArgs) -> oxport::Result<()> {
    let mut failed = 0;
    for (i, path) in args.inputs.iter().enumerate() {
        if i > 0 {
            println!();
        }
        if let Err(error) = info_one(path) {
            eprintln!("oxport: {}", located(path, &error.to_string()));
            failed += 1;
        }
    }
    finish(failed, args.inputs.len())
}

fn info_one(path: &Path) -> oxport::Result<()> {
    let reader = Reader::open(path)?;
    let size = reader.size();
    let parts = reader.parts();
    println!(
        "{}: {} bytes, {}",
        path.display(),
        size,
        if reader.is_multipart() {
            format!("{} parts", parts.len())
        } else {
            "one part".to_owned()
        }
    );
    for (index, part) in parts.iter().enumerate() {
        let header = part.header();
        if reader.is_multipart() {
            println!(
                "part {index}{}{}:",
                part.name().map(|n| format!(" {n:?}")).unwrap_or_default(),
                part.view()
                    .map(|v| format!(" (view {v})"))
                    .unwrap_or_default()
            );
        }
        let width = header
            .attributes
            .iter()
            .map(|(n, v)| n.len() + v.type_name().len() + 3)
            .max()
            .unwrap_or(0);
        for (name, value) in &header.attributes {
            let label = format!("{name} ({})", value.type_name());
            println!("  {label:<width$} {value}");
        }
        let window = part.data_window();
        let channels = header.channels()?;
        let levels = part.levels();
        let layout = match part.storage().tiles() {
            Some(tiles) => format!(
                "{} of {}×{} tiles in {} level{}",
                part.storage().type_name(),
                tiles.width,
                tiles.height,
                levels.len(),
                if levels.len() == 1 { "" } else { "s" }
            ),
            None => {
                let lines = part.compression().lines_per_chunk();
                format!(
                    "{} in {} chunks of {lines} line{}",
                    part.storage().type_name(),
                    part.chunk_count(),
                    if lines == 1 { "" } else { "s" }
                )
            }
        };
        println!(
            "  {} × {} pixels, {} channels, {layout}",
            window.width(),
            window.height(),
            channels.len(),
        );
        if levels.len() > 1 {
            let list: Vec<String> = levels
                .iter()
                .map(|l| format!("({}, {}) {}×{}", l.x, l.y, l.width, l.height))
                .collect();
            println!("  levels: {}", list.join(", "));
        }
    }
    Ok(())
}

fn convert(args: &ConvertArgs) -> oxport::Result<()> {
    let (output, inputs) = args.paths.split_last().expect("clap requires two paths");
    let storing = exr::Storing::choose(args.scanlines, args.tiles, &args.levels, &args.rounding)?;
    let job = Job {
        inputs: inputs.to_vec(),
        output: Output::of(output, inputs.len()),
        conversion: Conversion::Exr(ConvertOptions {
            compression: args.compression,
            level: args.level,
            storing,
            threads: None,
        }),
    };
    if let Some(scheduler) = &args.scheduler {
        return on_cluster(scheduler, job);
    }
    let totals = each_file(&job, args.threads, "converting")?;
    eprintln!("{}", totals.describe(&format!("to {}", args.compression)));
    totals.finish()
}
