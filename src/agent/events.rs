//! What the driver feeds the machine: the outcome of each command it carried out,
//! and a person's Stop. Unknown fields are allowed, so a driver may pass along more
//! than the machine reads (e.g. the settle report of an action).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::agent_protocol::TabBrief;
use crate::evaluator::Progress;
use crate::judge::Judgement;
use crate::model::ModelReply;
use crate::serde_flat::need;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
// Read through one flat struct (`crate::serde_flat`): every agent call reads one.
#[serde(try_from = "EventFields")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum AgentEvent {
    /// The result of `observe`.
    Observed {
        step: u32,
        text: String,
        url: String,
        /// The viewport's images, already labelled with their ids (`text+images`).
        #[serde(default)]
        images: Vec<ObservedImage>,
        /// A screenshot (`text+screenshot`) or the set-of-marks screenshot (`som`).
        #[serde(default)]
        screenshot: Option<Picture>,
        /// The session's tabs as the tabs line names them: a person's own agent gets
        /// them as data (`crate::agent_protocol`). Left out by older drivers.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tabs: Vec<TabBrief>,
    },
    /// The result of `call_model` when the model answered.
    ModelReplied {
        step: u32,
        reply: ModelReply,
        /// The failed tries before the answer, as the model client reports them.
        #[serde(default)]
        attempts: Vec<Value>,
        /// The `call` of the `call_model` this answers (0 when it had none).
        #[serde(default)]
        call: u32,
    },
    /// The result of `call_model` when every try failed.
    ModelFailed {
        step: u32,
        error: ModelFailure,
        #[serde(default)]
        attempts: Vec<Value>,
        #[serde(default)]
        call: u32,
    },
    /// The result of `judge`: one judgement per question (none when the answer
    /// raised no question).
    Judged {
        step: u32,
        #[serde(default)]
        judgements: Vec<Judgement>,
    },
    /// The result of `act`.
    Acted {
        step: u32,
        /// What the action did, as the worker reports it; `null` when nothing happened.
        #[serde(default)]
        effect: Value,
        /// Why the action was not carried out (unknown id, bad URL, ...).
        #[serde(default)]
        error: Option<String>,
        /// The session tracker's progress after the action.
        #[serde(default)]
        progress: Option<Progress>,
    },
    /// The person pressed Stop (or the driver gave up); valid at any step.
    StopRequested { reason: String },
    /// The browser took the run's ground away: a session page could not load (the
    /// browser's own network error), or the browser exited and the session went with
    /// it. Valid at any step; the run ends as an error, not as the agent's failure.
    Interrupted { reason: String },
}

impl AgentEvent {
    /// The step the event answers; `None` for events that belong to no step.
    pub fn step(&self) -> Option<u32> {
        match self {
            AgentEvent::Observed { step, .. }
            | AgentEvent::ModelReplied { step, .. }
            | AgentEvent::ModelFailed { step, .. }
            | AgentEvent::Judged { step, .. }
            | AgentEvent::Acted { step, .. } => Some(*step),
            AgentEvent::StopRequested { .. } | AgentEvent::Interrupted { .. } => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            AgentEvent::Observed { .. } => "observed",
            AgentEvent::ModelReplied { .. } => "model_replied",
            AgentEvent::ModelFailed { .. } => "model_failed",
            AgentEvent::Judged { .. } => "judged",
            AgentEvent::Acted { .. } => "acted",
            AgentEvent::StopRequested { .. } => "stop_requested",
            AgentEvent::Interrupted { .. } => "interrupted",
        }
    }
}

enum EventKind {
    Observed,
    ModelReplied,
    ModelFailed,
    Judged,
    Acted,
    StopRequested,
    Interrupted,
}

crate::serde_flat::unit_enum_deserialize!(EventKind, "EventKind", {
    Observed = "observed",
    ModelReplied = "model_replied",
    ModelFailed = "model_failed",
    Judged = "judged",
    Acted = "acted",
    StopRequested = "stop_requested",
    Interrupted = "interrupted",
});

/// An `AgentEvent` object as written: `kind` names the variant, each variant takes
/// the fields it has. `error` is a `ModelFailure` for `model_failed` and a message
/// for `acted`, so it is read as a JSON value and then as the variant's type.
#[derive(Deserialize)]
struct EventFields {
    kind: EventKind,
    step: Option<u32>,
    text: Option<String>,
    url: Option<String>,
    images: Option<Vec<ObservedImage>>,
    screenshot: Option<Picture>,
    tabs: Option<Vec<TabBrief>>,
    reply: Option<ModelReply>,
    attempts: Option<Vec<Value>>,
    call: Option<u32>,
    error: Option<Value>,
    judgements: Option<Vec<Judgement>>,
    effect: Option<Value>,
    progress: Option<Progress>,
    reason: Option<String>,
}

impl TryFrom<EventFields> for AgentEvent {
    type Error = String;

    fn try_from(f: EventFields) -> Result<AgentEvent, String> {
        let step = || need(f.step, "step");
        // A field with `#[serde(default)]` in the variant: missing or null is empty.
        let error_as = |error: Option<Value>| -> Result<Option<String>, String> {
            crate::json_read::from_value(error.unwrap_or(Value::Null)).map_err(|e| e.to_string())
        };
        Ok(match f.kind {
            EventKind::Observed => AgentEvent::Observed {
                step: step()?,
                text: need(f.text, "text")?,
                url: need(f.url, "url")?,
                images: f.images.unwrap_or_default(),
                screenshot: f.screenshot,
                tabs: f.tabs.unwrap_or_default(),
            },
            EventKind::ModelReplied => AgentEvent::ModelReplied {
                step: step()?,
                reply: need(f.reply, "reply")?,
                attempts: f.attempts.unwrap_or_default(),
                call: f.call.unwrap_or_default(),
            },
            EventKind::ModelFailed => AgentEvent::ModelFailed {
                step: step()?,
                error: crate::json_read::from_value(need(f.error, "error")?)
                    .map_err(|e| e.to_string())?,
                attempts: f.attempts.unwrap_or_default(),
                call: f.call.unwrap_or_default(),
            },
            EventKind::Judged => AgentEvent::Judged {
                step: step()?,
                judgements: f.judgements.unwrap_or_default(),
            },
            EventKind::Acted => AgentEvent::Acted {
                step: step()?,
                effect: f.effect.unwrap_or_default(),
                error: error_as(f.error)?,
                progress: f.progress,
            },
            EventKind::StopRequested => AgentEvent::StopRequested {
                reason: need(f.reason, "reason")?,
            },
            EventKind::Interrupted => AgentEvent::Interrupted {
                reason: need(f.reason, "reason")?,
            },
        })
    }
}

/// One labelled image of the viewport.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ObservedImage {
    /// The element id painted on the image.
    pub id: u32,
    pub mime: String,
    pub base64: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Picture {
    pub mime: String,
    pub base64: String,
}

/// Why a model call failed for good, as the model client reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ModelFailure {
    pub kind: String,
    pub message: String,
    #[serde(default)]
    pub hint: Option<String>,
}
