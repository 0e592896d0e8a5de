//! `oxport`: the command line tool, as a function that the binary and the
//! Python package's `oxport` command both call. Glue only: the work is in
//! the library.

mod cmd;
mod progress;

use std::ffi::OsString;
use std::sync::OnceLock;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// `command` and each of its subcommands with [`URLS`] at the end of their
/// help.
fn with_urls(command: clap::Command) -> clap::Command {
    command.after_help(URLS).mut_subcommands(with_urls)
}

/// What every command's help ends with: where files may live.
const URLS: &str = "Files may be URLs wherever they are read or written: s3://bucket/key, \
gs://..., az://..., https://... (a URL ending in / is a directory). Reads fetch only the \
byte ranges they need; outputs are published whole or not at all. Credentials, regions \
and endpoints come from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, \
AWS_REGION, AWS_ENDPOINT_URL, AWS_ALLOW_HTTP=true for a plain-HTTP endpoint; GOOGLE_*, \
AZURE_*).";

/// Fast, exact I/O for 3D and VFX data.
#[derive(Parser)]
#[command(name = "oxport", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate a 2M-face mesh and a many-object scene and export both as OBJ
    Demo(cmd::demo::Args),
    /// Wavefront OBJ
    #[command(subcommand)]
    Obj(cmd::obj::Command),
    /// OpenEXR images: info, recompression
    #[command(subcommand)]
    Exr(cmd::exr::Command),
    /// Zstandard seekable archives (what Blender's compressed .blend files are)
    #[command(subcommand)]
    Zst(cmd::zst::Command),
    /// Gradient strips interpolated in sRGB, linear sRGB, Oklab and Oklch, as a PNG
    Gradient(cmd::gradient::GradientArgs),
}

/// Runs the tool on `args` (the first is the program's name, and ignored:
/// the tool calls itself `oxport` wherever it runs): what it prints goes to
/// this process's stdout and stderr; returns the exit status (0 for
/// success, 1 when the work failed, 2 for a command line clap refused).
pub fn run(args: impl IntoIterator<Item = impl Into<OsString> + Clone>) -> u8 {
    // `--version` also lists the optional engines this build has.
    static LONG_VERSION: OnceLock<String> = OnceLock::new();
    let long_version = LONG_VERSION.get_or_init(|| {
        let engines = [&oxport::build::ENGINES[..], &oxport_lab::ENGINES[..]].concat();
        format!(
            "{}\n{}",
            env!("CARGO_PKG_VERSION"),
            oxport::build::summary(&engines)
        )
    });
    let command = with_urls(Cli::command().long_version(long_version.as_str())).bin_name("oxport");
    let cli = match command
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        Err(error) => {
            // Help and version on stdout (status 0), usage errors on stderr (2).
            let _ = error.print();
            return u8::try_from(error.exit_code()).unwrap_or(2);
        }
    };
    let result = match cli.command {
        Command::Demo(args) => cmd::demo::run(args),
        Command::Obj(command) => cmd::obj::run(command),
        Command::Exr(command) => cmd::exr::run(command),
        Command::Zst(command) => cmd::zst::run(command),
        Command::Gradient(args) => cmd::gradient::run(&args),
    };
    match result {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("oxport: {error}");
            1
        }
    }
}
