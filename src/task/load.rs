//! Reading a task from JSON text, with errors that name the field.

use super::Task;
use crate::condition::FieldError;
use serde::de::DeserializeOwned;
use std::fmt;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TaskError {
    /// The text is not JSON, or a field is missing or has the wrong type.
    #[error("{path}: {message} (line {line}, column {column})")]
    Json {
        path: String,
        message: String,
        line: usize,
        column: usize,
    },
    /// The JSON has the right shape but its content is unusable.
    #[error("{}", ErrorList(.0))]
    Invalid(Vec<FieldError>),
}

impl TaskError {
    /// Every problem as a (field path, message) pair, for per-field reporting.
    pub fn field_errors(&self) -> Vec<FieldError> {
        match self {
            TaskError::Json {
                path,
                message,
                line,
                column,
            } => {
                vec![FieldError::new(
                    path.clone(),
                    format!("{message} (line {line}, column {column})"),
                )]
            }
            TaskError::Invalid(errors) => errors.clone(),
        }
    }

    /// Converts a serde error met while reading a typed value from `text`, naming the
    /// field it is about (`crate::json_path`; `reread` reads a text the same way).
    fn from_json_error(
        text: &str,
        err: &serde_json::Error,
        reread: &dyn Fn(&str) -> Option<serde_json::Error>,
    ) -> Self {
        let path = match crate::json_path::error_path(text, err, reread) {
            p if p == "." => "(top level)".to_string(),
            p => p,
        };
        TaskError::Json {
            path,
            message: strip_position(&err.to_string()),
            line: err.line(),
            column: err.column(),
        }
    }
}

struct ErrorList<'a>(&'a [FieldError]);

impl fmt::Display for ErrorList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.0.iter().map(|e| e.to_string()).collect();
        write!(f, "{}", lines.join("; "))
    }
}

/// serde_json appends " at line L column C"; we report those separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// Parses and validates one task in our format. Nothing is returned unless the whole
/// task is valid, so a caller never holds a half-read task.
pub fn parse_task(text: &str) -> Result<Task, TaskError> {
    let task: Task = read_json(text)?;
    let errors = task.validate();
    if errors.is_empty() {
        Ok(task)
    } else {
        Err(TaskError::Invalid(errors))
    }
}

/// Reads a `T` (a task, an import config) from JSON text; an error names the field's
/// JSON path, as a task file's errors do.
pub(crate) fn read_json<T: DeserializeOwned>(text: &str) -> Result<T, TaskError> {
    // No `end()`: text after the value was never checked, and still is not.
    let read = |text: &str| {
        T::deserialize(crate::json_read::Objects(
            &mut serde_json::Deserializer::from_str(text),
        ))
    };
    read(text).map_err(|e| TaskError::from_json_error(text, &e, &|probe| read(probe).err()))
}
