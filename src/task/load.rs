//! Reading a task from JSON text, with errors that name the field.

use super::Task;
use crate::condition::FieldError;
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

    /// Converts a serde error met while reading a typed value, keeping its field path.
    pub fn from_path_error(err: serde_path_to_error::Error<serde_json::Error>) -> Self {
        let path = match err.path().to_string() {
            p if p == "." => "(top level)".to_string(),
            p => p,
        };
        let inner = err.into_inner();
        TaskError::Json {
            path,
            message: strip_position(&inner.to_string()),
            line: inner.line(),
            column: inner.column(),
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
    let de = &mut serde_json::Deserializer::from_str(text);
    let task: Task = serde_path_to_error::deserialize(de).map_err(TaskError::from_path_error)?;
    let errors = task.validate();
    if errors.is_empty() {
        Ok(task)
    } else {
        Err(TaskError::Invalid(errors))
    }
}

/// Reads task parts embedded in a larger value (the agent's stored task, the
/// tracker's hops) with the same path-tracking deserializer as a task file. Why: each
/// deserializer a type is read with compiles its own copy of the type's serde code,
/// and the task types are the largest; with one deserializer they are compiled once
/// (the wasm is smaller). Errors are serde_json's, as without the tracking.
pub(crate) fn deserialize_embedded<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    serde_path_to_error::deserialize(deserializer).map_err(serde_path_to_error::Error::into_inner)
}
