//! `hopbench tasks PATH...`: the tasks a file or folder holds, one JSON object per line,
//! for the runner (runner/tasks.mjs). The runner sends each file's text with the same
//! `file_name` to the extension, whose copy of the core imports it again: both see the
//! same text and name, so both derive the same task id.

use super::{task_paths, CliError, EXIT_FAILED, EXIT_OK};
use hopbench::fence::task_origins;
use hopbench::import::{import_str, task_files};
use serde::Serialize;
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;

const NAME: &str = "tasks";

/// One line of output. `file_name` is the file's folder and name (`normal/3.json`):
/// what the MMInA importer needs to know the subset, and what errors print.
#[derive(Serialize)]
struct Line<'a> {
    file: &'a Path,
    file_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hops: Option<usize>,
    /// Where the task starts (for people reading the list; the runner sends the file).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    start_urls: Vec<String>,
    /// How many reference steps the task carries: the replay agent needs at least one,
    /// and the runner says so before it tries the start URLs.
    reference_steps: usize,
    /// The hosts of the task's site fence (start URLs, reference sites, the sites its
    /// hops name): the runner lets its browser reach these names whatever they resolve
    /// to (runner/private-names.mjs), and no other name that resolves to this machine.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    site_hosts: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

pub(super) fn run(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    let paths = task_paths(NAME, args)?;
    let mut failed = false;
    for path in &paths {
        let files = task_files(path).map_err(|e| CliError::Runtime(e.to_string()))?;
        for file in &files {
            let line = describe(file);
            failed |= line.error.is_some();
            let json = serde_json::to_string(&line)
                .map_err(|e| CliError::Runtime(format!("cannot print {}: {e}", file.display())))?;
            writeln!(out, "{json}")?;
        }
    }
    Ok(if failed { EXIT_FAILED } else { EXIT_OK })
}

fn describe(file: &Path) -> Line<'_> {
    let file_name = short_name(file);
    let mut line = Line {
        file,
        file_name: file_name.clone(),
        format: None,
        id: None,
        hops: None,
        start_urls: Vec::new(),
        reference_steps: 0,
        site_hosts: Vec::new(),
        error: None,
    };
    match std::fs::read_to_string(file) {
        Err(e) => line.error = Some(format!("{}: cannot read: {e}", file.display())),
        Ok(text) => {
            let result = import_str(&text, Path::new(&file_name));
            line.format = result.format.map(|f| f.name());
            match result.outcome {
                Ok(task) => {
                    line.site_hosts = site_hosts(&task);
                    line.id = Some(task.id);
                    line.hops = Some(task.hops.len());
                    line.start_urls = task.start_urls;
                    line.reference_steps = task.reference_trajectory.len();
                }
                // The importer named the short name; the person wants the real path.
                Err(e) => {
                    let message = e.to_string();
                    let rest = message.strip_prefix(&format!("{file_name}: "));
                    line.error = Some(match rest {
                        Some(rest) => format!("{}: {rest}", file.display()),
                        None => message,
                    });
                }
            }
        }
    }
    line
}

/// The hosts of the task's own sites, each once, in order.
fn site_hosts(task: &hopbench::task::Task) -> Vec<String> {
    let mut hosts: Vec<String> = Vec::new();
    for (origin, _) in task_origins(task) {
        if !hosts.contains(&origin.host) {
            hosts.push(origin.host);
        }
    }
    hosts
}

/// `parent/name`, or just `name` for a file at the root.
fn short_name(file: &Path) -> String {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    let parent = file
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned());
    match (parent, name) {
        (Some(p), Some(n)) => format!("{p}/{n}"),
        (None, Some(n)) => n,
        _ => file.display().to_string(),
    }
}
