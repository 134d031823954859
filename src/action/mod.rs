//! The agent's action language: the 12 WebArena / VisualWebArena actions
//! (`click [id]`, `type [id] [text] [1|0]`, `stop [answer]`, ...), their canonical
//! printed form, precise parse errors, extraction from a model reply, and the
//! early-stop rules checked before each model call.

mod early_stop;
mod error;
mod extract;
mod key;
mod parse;
mod serde_read;
mod suggest;
mod types;

pub use early_stop::{
    check_early_stop, EarlyStop, EarlyStopConfig, EarlyStopReason, EarlyStopRule,
};
pub use error::{ActionParseError, ParseErrorKind};
pub use extract::{extract_action, ExtractError, ExtractedAction};
pub use key::{Key, KeyCombo, Modifier};
pub use types::{Action, ActionKind, ScrollDirection};

#[cfg(test)]
mod tests_extract;
#[cfg(test)]
mod tests_parse;
#[cfg(test)]
mod tests_roundtrip;
