//! Why a file could not be imported, always naming the file and, where there is one,
//! the field.

use crate::condition::FieldError;
use crate::task::TaskError;
use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    /// The file or folder could not be read at all.
    #[error("{}: cannot read: {message}", file.display())]
    Read { file: PathBuf, message: String },
    /// The text is not JSON.
    #[error("{}: not valid JSON: {message} (line {line}, column {column})", file.display())]
    Syntax {
        file: PathBuf,
        message: String,
        line: usize,
        column: usize,
    },
    /// Valid JSON, but none of the formats we read.
    #[error("{}: {}", file.display(), UNKNOWN_FORMAT)]
    UnknownFormat { file: PathBuf },
    /// Fields that are missing, mistyped or whose content cannot be mapped
    /// (an unknown eval type, a procedure without `end`, a placeholder URL...).
    #[error("{}: {}", file.display(), FieldList(.errors))]
    Fields {
        file: PathBuf,
        errors: Vec<FieldError>,
    },
    /// The mapped task fails `Task::validate()`; paths are those of our task format.
    #[error("{}: the imported task is invalid: {}", file.display(), FieldList(.errors))]
    Invalid {
        file: PathBuf,
        errors: Vec<FieldError>,
    },
}

const UNKNOWN_FORMAT: &str = "unknown task format: expected a hopbench task (`id` and `hops`), \
an MMInA task (`task_id` with `procedure` or `cnt_hop`) or a WebArena config (`task_id` and `eval`)";

impl ImportError {
    pub fn file(&self) -> &Path {
        match self {
            ImportError::Read { file, .. }
            | ImportError::Syntax { file, .. }
            | ImportError::UnknownFormat { file }
            | ImportError::Fields { file, .. }
            | ImportError::Invalid { file, .. } => file,
        }
    }

    /// Every problem as a (field path, message) pair, for one line each in a report.
    /// Problems about the whole file use the path `(file)`.
    pub fn field_errors(&self) -> Vec<FieldError> {
        match self {
            ImportError::Read { message, .. } => {
                vec![FieldError::new("(file)", format!("cannot read: {message}"))]
            }
            ImportError::Syntax {
                message,
                line,
                column,
                ..
            } => vec![FieldError::new(
                "(file)",
                format!("not valid JSON: {message} (line {line}, column {column})"),
            )],
            ImportError::UnknownFormat { .. } => vec![FieldError::new("(file)", UNKNOWN_FORMAT)],
            ImportError::Fields { errors, .. } | ImportError::Invalid { errors, .. } => {
                errors.clone()
            }
        }
    }

    /// Wraps an error from reading a typed value (our `parse_task` or a raw config).
    pub(crate) fn from_task_error(file: &Path, err: TaskError) -> Self {
        match err {
            TaskError::Json { .. } => ImportError::Fields {
                file: file.to_path_buf(),
                errors: err.field_errors(),
            },
            TaskError::Invalid(errors) => ImportError::Invalid {
                file: file.to_path_buf(),
                errors,
            },
        }
    }
}

struct FieldList<'a>(&'a [FieldError]);

impl fmt::Display for FieldList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|e| e.to_string()).collect();
        write!(f, "{}", parts.join("; "))
    }
}
