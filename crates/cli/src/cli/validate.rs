//! `hopbench validate PATH...`: import every task file and report per file and field.

use super::{task_paths, CliError, EXIT_FAILED, EXIT_OK};
use hopbench::import::{import_path, FileResult, ImportError};
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;

const NAME: &str = "validate";

pub(super) fn run(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    let paths = task_paths(NAME, args)?;
    let (mut ok, mut failed) = (0usize, 0usize);
    for path in &paths {
        match import_path(path) {
            Ok(results) if results.is_empty() => {
                writeln!(out, "FAIL {}", path.display())?;
                writeln!(out, "  (folder): no .json files found")?;
                failed += 1;
            }
            Ok(results) => {
                for result in &results {
                    if print_result(result, out)? {
                        ok += 1;
                    } else {
                        failed += 1;
                    }
                }
            }
            Err(e) => {
                print_failure(e.file(), &e, out)?;
                failed += 1;
            }
        }
    }
    let total = ok + failed;
    writeln!(
        out,
        "{total} file{}: {ok} ok, {failed} failed",
        if total == 1 { "" } else { "s" }
    )?;
    Ok(if failed == 0 { EXIT_OK } else { EXIT_FAILED })
}

/// Prints one file's lines; true when it imported.
fn print_result(result: &FileResult, out: &mut dyn Write) -> Result<bool, CliError> {
    match &result.outcome {
        Ok(task) => {
            let hops = task.hops.len();
            let format = result.format.map(|f| f.name()).unwrap_or("?");
            writeln!(
                out,
                "OK   {}  ({format}, {hops} hop{})",
                result.file.display(),
                if hops == 1 { "" } else { "s" }
            )?;
            for note in task.source.iter().flat_map(|s| s.notes.iter()) {
                writeln!(out, "  note: {note}")?;
            }
            Ok(true)
        }
        Err(e) => {
            print_failure(&result.file, e, out)?;
            Ok(false)
        }
    }
}

fn print_failure(file: &Path, error: &ImportError, out: &mut dyn Write) -> Result<(), CliError> {
    writeln!(out, "FAIL {}", file.display())?;
    for field in error.field_errors() {
        writeln!(out, "  {}: {}", field.path, field.message)?;
    }
    Ok(())
}
