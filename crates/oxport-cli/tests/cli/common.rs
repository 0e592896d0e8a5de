//! Running the `oxport` binary: the one helper of the command line's tests.

use std::io::Write;
use std::process::{Command, Stdio};

/// The `oxport` binary as a command: under the emulator that runs the tests
/// when `OXPORT_TEST_RUNNER` names one (`tools/cross/qemu-run.sh`).
pub fn command() -> Command {
    match std::env::var_os("OXPORT_TEST_RUNNER") {
        Some(runner) => {
            let mut command = Command::new(runner);
            command.arg(env!("CARGO_BIN_EXE_oxport"));
            command
        }
        None => Command::new(env!("CARGO_BIN_EXE_oxport")),
    }
}

/// Runs `oxport args` with `stdin` as its input: (success, stdout, stderr).
pub fn oxport_with(args: &[&str], stdin: &[u8]) -> (bool, Vec<u8>, String) {
    let mut child = command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("oxport runs");
    let mut input = child.stdin.take().expect("a piped stdin");
    let data = stdin.to_vec();
    // Fed from a thread: a child that writes before it reads would block both.
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().expect("oxport finishes");
    feeder.join().expect("the feeder finishes");
    (
        output.status.success(),
        output.stdout,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs `oxport args` with an empty input: (success, stdout, stderr) as text.
pub fn oxport(args: &[&str]) -> (bool, String, String) {
    let (ok, stdout, stderr) = oxport_with(args, &[]);
    (ok, String::from_utf8_lossy(&stdout).into_owned(), stderr)
}
