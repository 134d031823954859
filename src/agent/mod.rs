//! One agent run as a serialisable state machine. The driver (the extension's service
//! worker, or a test) carries out the commands it returns and feeds back what
//! happened as events; the state is persisted after every transition, so a run
//! survives the worker being stopped. Contract: docs/agent-run.md.
//!
//! A step: `observe` → `observed` → `call_model` → `model_replied` → `act` → `acted`
//! → `record`, then the next step's `observe` or `finish`. Replies without an action
//! and failed model calls are recorded as no-op steps at once (no `act`); replay
//! makes up the reply from the task's reference trajectory instead of calling a model.

mod commands;
mod config;
mod error;
mod events;
mod http_agent;
mod lines;
mod machine;
mod memory;
pub(crate) mod modular;
mod objective;
pub mod prompt;
mod record;
mod replay;
mod state;
mod steps;
mod to_reference;
mod words;

pub use commands::{Command, FinishCause};
pub use config::{
    AgentConfig, AgentKind, GroundingMode, ModularSettings, ObservationMode, PromptStyle,
    SelectMode,
};
pub use error::AgentError;
pub use events::{AgentEvent, ModelFailure, ObservedImage, Picture};
pub use lines::{element_label, element_lines, element_text, find_element, role_and_name};
pub use machine::Fed;
pub use modular::{rank_candidates, sections as modular_sections, Candidate};
pub use objective::objective;
pub use record::{
    ActResult, ActionRecord, CandidateRecord, ModelErrorRecord, ObservationRecord, PromptRecord,
    ReplyRecord, StageCall, StagesRecord, StepRecord, Tokens,
};
pub use state::{Agent, Phase};
pub use to_reference::{
    reference_step, reference_trajectory, Converted, RecordedStep, StepProblem,
};
pub use words::{action_in_words, ActionWords};

#[cfg(test)]
mod tests;
