//! `oxport`: the command line tool. Glue only: the work is in the library.

mod cmd;
mod progress;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

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
    let matches = Cli::command().long_version(long_version).get_matches();
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
