//! Importers: task files in our format, MMInA's and WebArena's, read into `Task`s.
//!
//! Every file is read on its own: a bad file yields an error naming the file and the
//! field, and no task (nothing is half-imported), while the other files still load.
//! docs/mmina-mapping.md documents how MMInA and WebArena fields become hops.

mod checkpoints;
mod config;
mod error;
mod eval;
mod intent;
mod procedure;
pub(crate) mod raw;
mod walk;

pub use error::ImportError;
// Listing task files and ordering ids (the CLI and the report use them).
pub use walk::{natural_cmp, task_files};

use crate::task::{parse_task, Task};
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// The task file formats we read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Ours (`schema/task.schema.json`).
    Hopbench,
    Mmina,
    /// A WebArena config file (`config_files/<n>.json`).
    Webarena,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Hopbench => "hopbench",
            Format::Mmina => "mmina",
            Format::Webarena => "webarena",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What importing one file gave.
#[derive(Debug, Clone, PartialEq)]
pub struct FileResult {
    pub file: PathBuf,
    /// `None` when the file is not JSON or in none of the formats.
    pub format: Option<Format>,
    pub outcome: Result<Task, ImportError>,
}

/// Which format a parsed file is in, from the fields it has.
pub fn detect_format(value: &Value) -> Option<Format> {
    let object = value.as_object()?;
    let has = |k: &str| object.contains_key(k);
    if has("id") && has("hops") {
        Some(Format::Hopbench)
    } else if has("task_id") && (has("procedure") || has("cnt_hop")) {
        Some(Format::Mmina)
    } else if has("task_id") && has("eval") {
        Some(Format::Webarena)
    } else {
        None
    }
}

/// Imports a file, or every `.json` file under a folder (recursively, folders and
/// numbered files in natural order). `Err` only when `path` itself cannot be read.
pub fn import_path(path: &Path) -> Result<Vec<FileResult>, ImportError> {
    Ok(walk::task_files(path)?
        .iter()
        .map(|file| import_file(file))
        .collect())
}

pub fn import_file(file: &Path) -> FileResult {
    match std::fs::read_to_string(file) {
        Ok(text) => import_str(&text, file),
        Err(e) => FileResult {
            file: file.to_path_buf(),
            format: None,
            outcome: Err(ImportError::Read {
                file: file.to_path_buf(),
                message: e.to_string(),
            }),
        },
    }
}

/// Imports one file's text; `file` names it in errors and decides MMInA ids.
pub fn import_str(text: &str, file: &Path) -> FileResult {
    let result = |format, outcome| FileResult {
        file: file.to_path_buf(),
        format,
        outcome,
    };
    let value: Value = match crate::json_read::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let message = e.to_string();
            let message = match message.rfind(" at line ") {
                Some(i) => message[..i].to_string(),
                None => message,
            };
            let error = ImportError::Syntax {
                file: file.to_path_buf(),
                message,
                line: e.line(),
                column: e.column(),
            };
            return result(None, Err(error));
        }
    };
    let Some(format) = detect_format(&value).map(|f| mmina_by_folder(f, file)) else {
        let error = ImportError::UnknownFormat {
            file: file.to_path_buf(),
        };
        return result(None, Err(error));
    };
    // The text is read again (not the Value) so type errors keep their line/column.
    let outcome = match format {
        Format::Hopbench => parse_task(text).map_err(|e| ImportError::from_task_error(file, e)),
        Format::Mmina | Format::Webarena => config::import_config(text, file, format),
    };
    result(Some(format), outcome)
}

/// MMInA's 1-hop files look like WebArena configs when they lack `cnt_hop`; inside an
/// MMInA subset folder they are MMInA tasks (and get `mmina/<domain>/<id>` ids).
fn mmina_by_folder(format: Format, file: &Path) -> Format {
    let in_subset = file
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .is_some_and(|d| config::MMINA_DOMAINS.contains(&d));
    if format == Format::Webarena && in_subset {
        Format::Mmina
    } else {
        format
    }
}
