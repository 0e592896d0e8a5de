//! `oxport zst ...`: Zstandard seekable archives.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use oxport::seekable::{self, Index, ReadOptions, Reader, WriteOptions};
use oxport::source::Reading;

use crate::cmd::batch::{each_file, on_cluster};
use crate::progress::{bar, megabytes};
use oxport::batch::{Conversion, Job, Output, is_directory};

#[derive(Subcommand)]
pub enum Command {
    /// Compress a file into a seekable archive: independent frames
    /// compressed on every core, then a seek table. Any zstd decoder
    /// reads it; Blender opens it as a compressed .blend
    Pack(PackArgs),
    /// Decompress an archive (seekable or any zstd file), frames in parallel
    Unpack(UnpackArgs),
    /// Write a byte range of the decompressed data to stdout, decompressing
    /// only the frames it lies in
    Cat(CatArgs),
    /// Describe an archive: frames, sizes, ratio, checksums
    Info(InfoArgs),
}

#[derive(Args)]
pub struct PackArgs {
    /// The file to compress (`-`: stdin), then the archive to write (`-`:
    /// stdout), written whole or not at all. For several files, the output is
    /// a directory (created if missing) where each archive is named after its
    /// file with `.zst` added
    #[arg(required = true, num_args = 2.., value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// zstd level: 1 (fast) to 22 (small), negative for faster still
    #[arg(short, long, default_value_t = WriteOptions::default().level, allow_negative_numbers = true)]
    pub level: i32,
    /// Decompressed size of each frame, in bytes or with K, M, G (powers of
    /// 1024): smaller frames make random reads cheaper and cost some ratio
    #[arg(long, default_value_t = Size(WriteOptions::default().frame_size))]
    pub frame_size: Size,
    /// Leave the checksums out of the seek table
    #[arg(long)]
    pub no_checksums: bool,
    /// Threads (default: one per core)
    #[arg(short = 'T', long)]
    pub threads: Option<usize>,
    /// Run on a Dask cluster instead of here: the scheduler's address
    /// (tcp://host:8786), one task per file on its workers (paths they can
    /// see, or fsspec URLs), the output a directory. Runs the Python
    /// package's `oxport.dask` (`pip install 'oxport[dask]'`; OXPORT_PYTHON
    /// names the interpreter: by default the one the `oxport`
    /// command was installed with, else python3, python on Windows)
    #[arg(long, value_name = "ADDRESS")]
    pub scheduler: Option<String>,
}

#[derive(Args)]
pub struct UnpackArgs {
    /// The archive (`-`: stdin, decompressed in one pass)
    pub input: PathBuf,
    /// The file to write (`-`: stdout); written whole or not at all
    pub output: PathBuf,
    /// Threads (default: one per core)
    #[arg(short = 'T', long)]
    pub threads: Option<usize>,
}

#[derive(Args)]
pub struct CatArgs {
    /// The archive
    pub input: PathBuf,
    /// Where the range starts in the decompressed data
    #[arg(long, default_value = "0", value_parser = parse_size)]
    pub offset: usize,
    /// How many bytes (default: to the end)
    #[arg(long, value_parser = parse_size)]
    pub length: Option<usize>,
}

#[derive(Args)]
pub struct InfoArgs {
    /// The archive
    pub input: PathBuf,
}

/// A size in bytes as the command line writes it: `2M`, `256K`, `1G`
/// (powers of 1024) or a number of bytes.
#[derive(Clone, Copy, Debug)]
pub struct Size(pub usize);

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let unit = [(30, "G"), (20, "M"), (10, "K")]
            .into_iter()
            .find(|&(shift, _)| self.0 != 0 && self.0.is_multiple_of(1 << shift));
        match unit {
            Some((shift, unit)) => write!(f, "{}{unit}", self.0 >> shift),
            None => write!(f, "{}", self.0),
        }
    }
}

impl std::str::FromStr for Size {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        parse_size(text).map(Size)
    }
}

/// `2M`, `256K`, `1G` (powers of 1024) or a number of bytes.
fn parse_size(text: &str) -> Result<usize, String> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    };
    let shift = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        _ => return Err(format!("{text:?}: a size is a number with K, M or G")),
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("{text:?}: a size is a number with K, M or G"))
}

fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

pub fn run(command: Command) -> oxport::Result<()> {
    match command {
        Command::Pack(args) => pack(&args),
        Command::Unpack(args) => unpack(&args),
        Command::Cat(args) => cat(&args),
        Command::Info(args) => info(&args),
    }
}

fn pack(args: &PackArgs) -> oxport::Result<()> {
    let (output, inputs) = args.paths.split_last().expect("clap requires two paths");
    let options = WriteOptions {
        level: args.level,
        frame_size: args.frame_size.0,
        checksums: !args.no_checksums,
        threads: args.threads,
    };
    let stdio = inputs.iter().any(|p| is_stdio(p)) || is_stdio(output);
    if let [input] = inputs
        && args.scheduler.is_none()
        && (stdio || !is_directory(output))
    {
        return pack_one(input, output, &options);
    }
    if stdio {
        return Err(oxport::Error::InvalidArgument(
            "`-` (stdin, stdout) packs one file here, not several nor on a cluster".into(),
        ));
    }
    let job = Job {
        inputs: inputs.to_vec(),
        output: Output::of(output, inputs.len()),
        conversion: Conversion::Seekable(options),
    };
    if let Some(scheduler) = &args.scheduler {
        return on_cluster(scheduler, job);
    }
    let totals = each_file(&job, args.threads, "packing")?;
    eprintln!(
        "{}",
        totals.describe(&format!("packed into {}", output.display()))
    );
    totals.finish()
}

/// One file (or stdin) into one archive (or stdout).
fn pack_one(input: &Path, output: &Path, options: &WriteOptions) -> oxport::Result<()> {
    let progress = bar("packing");
    if !is_stdio(input) {
        let size = std::fs::metadata(input).map_or(0, |m| m.len());
        progress.set_length(size);
    }
    let start = Instant::now();
    let report = |done, total| {
        if total > 0 {
            progress.set_length(total);
        }
        progress.set_position(done);
    };
    let packed = match (is_stdio(input), is_stdio(output)) {
        (false, false) => seekable::pack_file(input, output, options, report),
        (true, false) => oxport::atomic::write_file(output, |file| {
            seekable::pack(io::stdin().lock(), BufWriter::new(file), options, report)
        }),
        (false, true) => {
            let source = Reading::new(oxport::source::open(input)?)
                .map_err(|e| oxport::Error::io_at(input, e))?;
            seekable::pack(source, stdout(), options, report)
        }
        (true, true) => seekable::pack(io::stdin().lock(), stdout(), options, report),
    };
    progress.finish_and_clear();
    let packed = packed?;
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{}: {} frames, {:.1} MB to {:.1} MB ({:.2}%) in {:.3} s ({:.0} MB/s)",
        output.display(),
        packed.frames,
        megabytes(packed.input_bytes),
        megabytes(packed.output_bytes),
        100.0 * packed.output_bytes as f64 / packed.input_bytes.max(1) as f64,
        seconds,
        megabytes(packed.input_bytes) / seconds,
    );
    Ok(())
}

fn unpack(args: &UnpackArgs) -> oxport::Result<()> {
    let options = ReadOptions {
        threads: args.threads,
    };
    let progress = bar("unpacking");
    let report = |done, total| {
        if total > 0 {
            progress.set_length(total);
        }
        progress.set_position(done);
    };
    let start = Instant::now();
    let size = if is_stdio(&args.input) {
        let input = io::stdin().lock();
        if is_stdio(&args.output) {
            seekable::unpack_stream(input, stdout(), report)
        } else {
            oxport::atomic::write_file(&args.output, |file| {
                seekable::unpack_stream(input, BufWriter::new(file), report)
            })
        }
    } else {
        let reader = Reader::open(&args.input, &options)?;
        if is_stdio(&args.output) {
            reader.unpack(stdout(), report)
        } else {
            reader.unpack_to_file(&args.output, report)
        }
    };
    progress.finish_and_clear();
    let size = size?;
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{}: {:.1} MB in {:.3} s ({:.0} MB/s)",
        args.output.display(),
        megabytes(size),
        seconds,
        megabytes(size) / seconds
    );
    Ok(())
}

fn cat(args: &CatArgs) -> oxport::Result<()> {
    let reader = Reader::open(&args.input, &ReadOptions::default())?;
    let mut out = stdout();
    let mut buffer = vec![0u8; 4 << 20];
    let mut offset = args.offset as u64;
    let mut left = args.length.map_or(u64::MAX, |n| n as u64);
    while left > 0 {
        let take = left.min(buffer.len() as u64) as usize;
        let n = reader.read_at(offset, &mut buffer[..take])?;
        if n == 0 {
            break;
        }
        out.write_all(&buffer[..n])?;
        offset += n as u64;
        left -= n as u64;
    }
    out.flush()?;
    Ok(())
}

fn info(args: &InfoArgs) -> oxport::Result<()> {
    let reader = Reader::open(&args.input, &ReadOptions::default())?;
    let frames = reader.frames();
    let archive = reader.archive_size();
    let size = reader.find_size()?;
    let index = match reader.index() {
        Index::SeekTable { checksums: true } => "seek table, with checksums",
        Index::SeekTable { checksums: false } => "seek table, without checksums",
        Index::FrameHeaders => "no seek table: frame headers (random reads work)",
        Index::None => "no seek table and no frame sizes: streaming only",
    };
    println!("{}", args.input.display());
    println!("  index:         {index}");
    println!("  archive:       {archive} bytes");
    println!("  decompressed:  {size} bytes");
    println!(
        "  ratio:         {:.3} ({:.2}% of the data)",
        size as f64 / archive.max(1) as f64,
        100.0 * archive as f64 / size.max(1) as f64
    );
    if !frames.is_empty() {
        let largest = frames.iter().max_by_key(|f| f.size).expect("not empty");
        let smallest = frames.iter().min_by_key(|f| f.size).expect("not empty");
        println!("  frames:        {}", frames.len());
        println!(
            "  frame sizes:   {} to {} bytes (mean {:.0})",
            smallest.size,
            largest.size,
            size as f64 / frames.len() as f64
        );
        println!(
            "  largest frame: {} bytes at {} ({} compressed at {})",
            largest.size, largest.offset, largest.compressed_size, largest.compressed_offset
        );
    }
    Ok(())
}

/// Standard output, buffered (stdout is line-buffered otherwise), in writes of
/// at most 512 KiB as the library makes them (larger ones into the page cache
/// are sometimes much slower).
fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(512 << 10, io::stdout().lock())
}
