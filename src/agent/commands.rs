//! What the machine asks the driver to do. Each command but `record` and `finish`
//! is answered by exactly one event carrying the same `step`.

use serde::{Deserialize, Serialize};

use super::config::ObservationMode;
use super::record::StepRecord;
use crate::action::EarlyStopRule;
use crate::judge::Judgement;
use crate::model::ModelRequest;
use crate::observation::ObservationFormat;
use crate::provider::ErrorKind;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Command {
    /// Observe the session's current tab; answer with `observed`.
    Observe {
        step: u32,
        mode: ObservationMode,
        /// Replay looks elements up by role and name, which must work for elements
        /// below the fold too, so it observes the whole page.
        whole_page: bool,
        /// Left out when it is MMInA's, the default.
        #[serde(default, skip_serializing_if = "is_mmina")]
        format: ObservationFormat,
    },
    /// Run the model call; answer with `model_replied` or `model_failed` carrying the
    /// same `call`. The prompt agent makes one call per step (`call` 0, left out); the
    /// modular agent numbers its stages' calls 1, 2, ... so a repeated answer to an
    /// earlier stage is never taken for the next one.
    CallModel {
        step: u32,
        request: ModelRequest,
        #[serde(default, skip_serializing_if = "is_zero")]
        call: u32,
    },
    /// Before a `stop [answer]` of a task with fuzzy references: ask the judge each
    /// question the answer raises (the session's tracker lists them); answer with
    /// `judged`. Without a model (`with_model` false: replay) the exact-containment
    /// fallback decides. Harmless to repeat.
    Judge {
        step: u32,
        answer: String,
        with_model: bool,
    },
    /// Carry out this action text (canonical spelling) in the session; answer with
    /// `acted`. Navigations it causes belong to `step`. A `stop` is scored with
    /// `judgements` (present only after `judge`).
    Act {
        step: u32,
        action_text: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        judgements: Vec<Judgement>,
    },
    /// Store the finished step. Exactly one per step; no answer expected.
    Record { step: u32, record: Box<StepRecord> },
    /// The run is over; the verdict comes from the session's tracker.
    Finish {
        cause: FinishCause,
        reason: String,
        /// The answer of `stop [answer]`, when the run ended with one.
        answer: Option<String>,
        /// What the person should change, when the run could not go on
        /// (`model_unavailable`: the model client's hint).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hint: Option<String>,
        /// The rule that fired, when `cause` is `early_stop`: `reason` says it in
        /// words, this by name (`parse_failures`, `max_steps`, ...).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<EarlyStopRule>,
        /// The failed model call's error kind, when a model failure ended the run
        /// (`model_unavailable`, `context_overflow`, `unsupported_input`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error_kind: Option<ErrorKind>,
    },
}

fn is_mmina(format: &ObservationFormat) -> bool {
    *format == ObservationFormat::Mmina
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Why a run ended, for the driver's run status and for metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum FinishCause {
    /// The agent issued `stop [answer]`.
    Answered,
    /// The tracker reported every hop done.
    AllHopsDone,
    /// An early-stop rule fired (step limit, unparseable outputs, repeats).
    EarlyStop,
    /// Replay ran out of reference steps without a `stop`.
    ReplayEnded,
    /// Replay could not carry out a reference step (its element is not on the page).
    ReplayFailed,
    /// `stop_requested`.
    Stopped,
    /// `interrupted`: a page the browser could not load, or the browser's exit.
    Interrupted,
    /// A model call failed in a way every later call would too (unreachable server,
    /// refused key, unknown model or URL, refused origin, unusable settings).
    ModelUnavailable,
    /// The prompt did not fit the model's context (`context_overflow`): the task ends
    /// as an error with the sizes, since every later step's prompt is as long.
    ContextOverflow,
    /// The model cannot take what the observation mode sends (`unsupported_input`:
    /// images to a text-only model): a configuration error for the whole batch.
    UnsupportedInput,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(FinishCause, "FinishCause", {
    Answered = "answered",
    AllHopsDone = "all_hops_done",
    EarlyStop = "early_stop",
    ReplayEnded = "replay_ended",
    ReplayFailed = "replay_failed",
    Stopped = "stopped",
    Interrupted = "interrupted",
    ModelUnavailable = "model_unavailable",
    ContextOverflow = "context_overflow",
    UnsupportedInput = "unsupported_input",
});

crate::variants::every_variant!(FinishCause {
    Answered,
    AllHopsDone,
    EarlyStop,
    ReplayEnded,
    ReplayFailed,
    Stopped,
    Interrupted,
    ModelUnavailable,
    ContextOverflow,
    UnsupportedInput,
});
