//! `oxport`: the command line tool. Glue only: the work is in the library.

mod cmd;
mod progress;

use std::process::ExitCode;

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

fn main() -> ExitCode {
    // `--version` also lists the optional engines this build has.
    let long_version = format!(
        "{}\n{}",
        env!("CARGO_PKG_VERSION"),
        oxport::build::summary(&[&oxport::build::ENGINES[..], &oxport_lab::ENGINES[..]].concat())
    );
    let long_version: &'static str = long_version.leak();
    let matches = with_urls(Cli::command().long_version(long_version)).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    let result = match cli.command {
        Command::Demo(args) => cmd::demo::run(args),
        Command::Obj(command) => cmd::obj::run(command),
        Command::Exr(command) => cmd::exr::run(command),
        Command::Zst(command) => cmd::zst::run(command),
        Command::Gradient(args) => cmd::gradient::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("oxport: {error}");
            ExitCode::FAILURE
        }
    }
}
