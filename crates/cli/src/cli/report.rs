//! `hopbench report DIR... [--out OUT] [--prices FILE]`: merge run folders and write
//! the report, with costs when a price table is given.

use super::args::{Args, Item};
use super::{CliError, EXIT_OK};
use crate::report::cost::Prices;
use crate::report::write_report;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

const NAME: &str = "report";

struct Folders {
    dirs: Vec<PathBuf>,
    out: Option<PathBuf>,
    prices: Option<Prices>,
}

pub(super) fn run(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    let args = parse(args)?;
    let target = args
        .out
        .clone()
        .or_else(|| args.dirs.first().cloned())
        .ok_or_else(|| CliError::Usage {
            command: NAME,
            message: "give at least one run folder".to_string(),
        })?;
    let written = write_report(&args.dirs, &target, args.prices.as_ref())
        .map_err(|e| CliError::Runtime(e.to_string()))?;
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

fn parse(args: &[OsString]) -> Result<Folders, CliError> {
    let mut dirs = Vec::new();
    let mut out = None;
    let mut prices = None;
    let mut args = Args::new(NAME, args);
    while let Some(item) = args.next()? {
        match item {
            Item::Option(o) if o == "--out" => {
                out = Some(PathBuf::from(args.value(&o, "a folder")?))
            }
            // Read at once: a bad table is the caller's mistake, said before any work.
            Item::Option(o) if o == "--prices" => {
                let file = PathBuf::from(args.value(&o, "a price file (JSON)")?);
                prices = Some(Prices::read(&file).map_err(|message| args.usage(message))?);
            }
            Item::Option(o) => return Err(args.unknown(&o, "--out OUT, --prices FILE")),
            Item::Value(value) => {
                let dir = PathBuf::from(value);
                if !dir.is_dir() {
                    return Err(args.usage(format!("not a folder: {}", dir.display())));
                }
                dirs.push(dir);
            }
        }
    }
    if dirs.is_empty() {
        return Err(args.usage("give at least one run folder".to_string()));
    }
    Ok(Folders { dirs, out, prices })
}
