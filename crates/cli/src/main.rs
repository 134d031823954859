//! Native command-line entry point (build.sh calls it). All logic is in `hopbench_cli::cli`.

use std::process::ExitCode;

fn main() -> ExitCode {
    // args_os: file paths need not be UTF-8.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let status = hopbench_cli::cli::run(&args, &mut std::io::stdout(), &mut std::io::stderr());
    ExitCode::from(status)
}
