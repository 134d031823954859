//! `hopbench report DIR... [--out OUT]`: merge run folders and write the report.

use super::{CliError, EXIT_OK};
use crate::report::write_report;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

const NAME: &str = "report";

struct Args {
    dirs: Vec<PathBuf>,
    out: Option<PathBuf>,
}

pub(super) fn run(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    let args = parse(args)?;
    let target = args
        .out
        .clone()
        .or_else(|| args.dirs.first().cloned())
        .ok_or_else(|| usage_error("give at least one run folder"))?;
    let written =
        write_report(&args.dirs, &target).map_err(|e| CliError::Runtime(e.to_string()))?;
    let summary = &written.summary;
    for note in &summary.notes {
        writeln!(out, "note: {note}")?;
    }
    writeln!(out, "{}", summary.to_markdown())?;
    writeln!(out, "wrote {}", written.summary_path.display())?;
    writeln!(
        out,
        "wrote {} ({} trajectory page{})",
        written.html_path.display(),
        written.trajectory_pages,
        if written.trajectory_pages == 1 {
            ""
        } else {
            "s"
        }
    )?;
    Ok(EXIT_OK)
}

fn parse(args: &[OsString]) -> Result<Args, CliError> {
    let mut dirs = Vec::new();
    let mut out = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let text = arg.to_string_lossy();
        if text == "--out" {
            let value = rest
                .next()
                .ok_or_else(|| usage_error("--out needs a folder"))?;
            out = Some(PathBuf::from(value));
        } else if let Some(value) = text.strip_prefix("--out=") {
            out = Some(PathBuf::from(value));
        } else if text.starts_with('-') {
            return Err(usage_error(&format!("unknown option {text}")));
        } else {
            let dir = PathBuf::from(arg);
            if !dir.is_dir() {
                return Err(usage_error(&format!("not a folder: {}", dir.display())));
            }
            dirs.push(dir);
        }
    }
    if dirs.is_empty() {
        return Err(usage_error("give at least one run folder"));
    }
    Ok(Args { dirs, out })
}

fn usage_error(message: &str) -> CliError {
    CliError::Usage {
        command: NAME,
        message: message.to_string(),
    }
}
