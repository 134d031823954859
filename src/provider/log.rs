//! The record of one model call across its tries, and the outcome the glue returns.
//!
//! The glue's loop is: send, [`parse_reply`](super::parse_reply), and on an error ask
//! [`CallLog::failed`] whether and how long to wait. Keeping that bookkeeping here
//! makes the retry sequence testable without a browser.

use super::error::{CallError, ErrorKind};
use super::retry::{retry_delay, RetryPolicy};
use crate::model::ModelReply;
use serde::{Deserialize, Serialize};

/// One failed try.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Attempt {
    pub kind: ErrorKind,
    pub message: String,
    /// The wait before the next try; `None` when no try followed.
    pub delay_ms: Option<u64>,
}

/// The error as shown to people: what happened and what to change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OutcomeError {
    pub kind: ErrorKind,
    pub message: String,
    pub hint: String,
}

/// `{ok: true, reply, attempts}` or `{ok: false, error, attempts}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CallOutcome {
    pub ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<ModelReply>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<OutcomeError>,
    /// One entry per failed try, oldest first (empty when the first try worked).
    pub attempts: Vec<Attempt>,
}

impl CallOutcome {
    /// An outcome for a call that failed before any try (bad arguments or settings).
    pub fn failed_before_sending(error: CallError, hint: String) -> Self {
        let mut log = CallLog::new(RetryPolicy::with_max_tries(1));
        log.failed(&error);
        log.gave_up(error, hint)
    }
}

#[derive(Debug, Clone)]
pub struct CallLog {
    policy: RetryPolicy,
    attempts: Vec<Attempt>,
}

impl CallLog {
    pub fn new(policy: RetryPolicy) -> Self {
        CallLog {
            policy,
            attempts: Vec::new(),
        }
    }

    /// Tries that failed so far.
    pub fn failures(&self) -> u32 {
        u32::try_from(self.attempts.len()).unwrap_or(u32::MAX)
    }

    /// Records a failed try; returns the wait before the next one, or `None` when
    /// this failure is final (not transient, or the tries are used up).
    pub fn failed(&mut self, error: &CallError) -> Option<u64> {
        let attempt = self.failures().saturating_add(1);
        let delay_ms = if error.kind == ErrorKind::Cancelled {
            None
        } else {
            retry_delay(&self.policy, attempt, error)
        };
        self.attempts.push(Attempt {
            kind: error.kind,
            message: error.message.clone(),
            delay_ms,
        });
        delay_ms
    }

    pub fn succeeded(self, reply: ModelReply) -> CallOutcome {
        CallOutcome {
            ok: true,
            reply: Some(reply),
            error: None,
            attempts: self.attempts,
        }
    }

    /// The final outcome after `error`, which [`failed`](Self::failed) has recorded.
    /// When several tries were made the message says so, so "timed out" is not
    /// mistaken for a single slow answer.
    pub fn gave_up(self, error: CallError, hint: String) -> CallOutcome {
        let tries = self.attempts.len();
        let message = if tries > 1 && error.kind != ErrorKind::Cancelled {
            format!("{} (gave up after {tries} tries)", error.message)
        } else {
            error.message
        };
        CallOutcome {
            ok: false,
            reply: None,
            error: Some(OutcomeError {
                kind: error.kind,
                message,
                hint,
            }),
            attempts: self.attempts,
        }
    }
}
