//! The `oxport` binary: the tool is [`oxport_cli::run`].

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(oxport_cli::run(std::env::args_os()))
}
