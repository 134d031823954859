//! Errors leaving the core cross the boundary as a JavaScript `Error` whose `message` is
//! the core error's text and whose `kind` says what it is about (`task`, `config`,
//! `state`, `input`, `action`, `element`, `internal`: `hopbench::boundary::CoreErrorKind`,
//! listed for JavaScript as `CORE_ERROR_KINDS` in `extension/core-terms.js`), so a caller
//! can tell a refused task from refused settings or an unreadable stored state without
//! reading the words.

use hopbench::action::ActionParseError;
use hopbench::agent::AgentError;
use hopbench::boundary::CoreErrorKind;
use hopbench::import::ImportError;
use hopbench::observation::{ObservationError, RegistryError};
use hopbench::tracker::TrackerError;
use std::fmt::Display;
use wasm_bindgen::JsValue;

/// An error an export throws: what it is about, and the message for people.
#[derive(Debug)]
pub struct Thrown {
    kind: CoreErrorKind,
    message: String,
}

impl Thrown {
    pub fn new(kind: CoreErrorKind, message: impl Display) -> Thrown {
        Thrown {
            kind,
            message: message.to_string(),
        }
    }

    /// A value the caller passed that is not what the export takes.
    pub fn input(message: impl Display) -> Thrown {
        Thrown::new(CoreErrorKind::Input, message)
    }
}

/// What wasm-bindgen throws: an `Error` with the message, and `kind` beside it.
impl From<Thrown> for JsValue {
    fn from(thrown: Thrown) -> JsValue {
        let error = js_sys::Error::new(&thrown.message);
        // Setting a property of a fresh, ordinary Error object does not fail; were it to,
        // the error would still carry its message.
        let _ = js_sys::Reflect::set(
            &error,
            &JsValue::from_str("kind"),
            &JsValue::from_str(thrown.kind.name()),
        );
        error.into()
    }
}

impl From<AgentError> for Thrown {
    fn from(error: AgentError) -> Thrown {
        Thrown::new(error.kind(), error)
    }
}

impl From<TrackerError> for Thrown {
    fn from(error: TrackerError) -> Thrown {
        Thrown::new(error.kind(), error)
    }
}

impl From<RegistryError> for Thrown {
    fn from(error: RegistryError) -> Thrown {
        Thrown::new(error.kind(), error)
    }
}

impl From<ImportError> for Thrown {
    fn from(error: ImportError) -> Thrown {
        Thrown::new(CoreErrorKind::Task, error)
    }
}

impl From<ObservationError> for Thrown {
    fn from(error: ObservationError) -> Thrown {
        Thrown::input(error)
    }
}

impl From<ActionParseError> for Thrown {
    fn from(error: ActionParseError) -> Thrown {
        Thrown::new(CoreErrorKind::Action, error)
    }
}
