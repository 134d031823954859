//! Early stopping: ends an episode that is out of budget or stuck, checked before
//! each model call.
//!
//! Rules, in order of precedence (the first that fires is reported):
//! 1. Step budget: the history already holds `max_steps` steps or more. First,
//!    because the budget is a hard limit whatever the agent is doing.
//! 2. Parse failures: the last `parse_failures` entries are all unparseable (`None`).
//!    Before the repeat rules, since a model that cannot produce an action is the
//!    more basic failure.
//! 3. Repeated action: the last `repeats` entries are the same action (same kind,
//!    same arguments): the page did not change what the agent does.
//! 4. Repeated typing: one `type` action (same id, text and flag) occurs `repeats`
//!    times anywhere in the history. Typing is checked over the whole history because
//!    an agent that retypes the same query between other actions is looping even
//!    though no two neighbours are equal (WebArena's rule for `type`).
//!
//! A threshold of 0 turns its rule off (0 steps, failures or repeats cannot mean
//! "stop before anything happened").

use std::fmt;

use serde::{Deserialize, Serialize};

use super::types::Action;

/// Thresholds for [`check_early_stop`]. Zero disables a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EarlyStopConfig {
    /// Stop once this many steps have been taken (default 30).
    pub max_steps: usize,
    /// Stop after this many unparseable outputs in a row (default 3).
    pub parse_failures: usize,
    /// Stop after this many identical actions in a row, or this many identical
    /// `type` actions anywhere (default 3).
    pub repeats: usize,
}

impl Default for EarlyStopConfig {
    fn default() -> Self {
        EarlyStopConfig {
            max_steps: 30,
            parse_failures: 3,
            repeats: 3,
        }
    }
}

/// Which rule fired, with what it saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum EarlyStopReason {
    /// Rule 1.
    MaxSteps { steps: usize, max_steps: usize },
    /// Rule 2: no action came out of the last `count` steps (an unparseable reply,
    /// or a failed model call).
    ParseFailures { count: usize },
    /// Rule 3.
    RepeatedAction { action: Action, count: usize },
    /// Rule 4.
    RepeatedType { action: Action, count: usize },
}

impl fmt::Display for EarlyStopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EarlyStopReason::MaxSteps { steps, max_steps } => {
                write!(f, "reached the step limit ({steps} of {max_steps} steps)")
            }
            EarlyStopReason::ParseFailures { count } => {
                write!(f, "the last {count} steps gave no action")
            }
            EarlyStopReason::RepeatedAction { action, count } => {
                write!(
                    f,
                    "the same action `{action}` was repeated {count} times in a row"
                )
            }
            EarlyStopReason::RepeatedType { action, count } => {
                write!(
                    f,
                    "the same typing action `{action}` was issued {count} times"
                )
            }
        }
    }
}

impl EarlyStopReason {
    /// The rule that fired, by name: the `rule` tag this reason is written with.
    pub fn rule(&self) -> EarlyStopRule {
        match self {
            EarlyStopReason::MaxSteps { .. } => EarlyStopRule::MaxSteps,
            EarlyStopReason::ParseFailures { .. } => EarlyStopRule::ParseFailures,
            EarlyStopReason::RepeatedAction { .. } => EarlyStopRule::RepeatedAction,
            EarlyStopReason::RepeatedType { .. } => EarlyStopRule::RepeatedType,
        }
    }
}

/// An early-stop rule by name, without what it saw: the `rule` of an early stop's
/// `finish`, so a reader (the runner, a report) tells the rules apart without reading
/// the reason's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum EarlyStopRule {
    /// Rule 1: the step budget is spent.
    MaxSteps,
    /// Rule 2: the last steps gave no action.
    ParseFailures,
    /// Rule 3: the same action in a row.
    RepeatedAction,
    /// Rule 4: the same typing anywhere in the history.
    RepeatedType,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(EarlyStopRule, "EarlyStopRule", {
    MaxSteps = "max_steps",
    ParseFailures = "parse_failures",
    RepeatedAction = "repeated_action",
    RepeatedType = "repeated_type",
});

crate::variants::every_variant!(EarlyStopRule {
    MaxSteps,
    ParseFailures,
    RepeatedAction,
    RepeatedType,
});

/// The decision to stop an episode early.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EarlyStop {
    pub reason: EarlyStopReason,
}

impl EarlyStop {
    /// Human-readable reason, e.g. "reached the step limit (30 of 30 steps)".
    pub fn reason(&self) -> String {
        self.reason.to_string()
    }

    /// The `stop` action recorded in place of a model action.
    pub fn as_action(&self) -> Action {
        Action::Stop {
            answer: format!("Early stop: {}", self.reason),
        }
    }
}

/// Checks the rules (see the module docs) against the steps taken so far; each entry
/// is the parsed action of one step, `None` if the model's output did not parse.
pub fn check_early_stop(history: &[Option<Action>], config: &EarlyStopConfig) -> Option<EarlyStop> {
    max_steps(history, config)
        .or_else(|| parse_failures(history, config))
        .or_else(|| repeated_action(history, config))
        .or_else(|| repeated_type(history, config))
        .map(|reason| EarlyStop { reason })
}

fn max_steps(history: &[Option<Action>], config: &EarlyStopConfig) -> Option<EarlyStopReason> {
    (config.max_steps > 0 && history.len() >= config.max_steps).then_some(
        EarlyStopReason::MaxSteps {
            steps: history.len(),
            max_steps: config.max_steps,
        },
    )
}

fn parse_failures(history: &[Option<Action>], config: &EarlyStopConfig) -> Option<EarlyStopReason> {
    let n = config.parse_failures;
    let tail = last_n(history, n)?;
    tail.iter()
        .all(Option::is_none)
        .then_some(EarlyStopReason::ParseFailures { count: n })
}

fn repeated_action(
    history: &[Option<Action>],
    config: &EarlyStopConfig,
) -> Option<EarlyStopReason> {
    let n = config.repeats;
    let tail = last_n(history, n)?;
    let first = tail.first()?.as_ref()?;
    tail.iter()
        .all(|step| step.as_ref() == Some(first))
        .then(|| EarlyStopReason::RepeatedAction {
            action: first.clone(),
            count: n,
        })
}

fn repeated_type(history: &[Option<Action>], config: &EarlyStopConfig) -> Option<EarlyStopReason> {
    let n = config.repeats;
    if n == 0 {
        return None;
    }
    // Histories are at most a few dozen steps, so counting pairwise is cheap and
    // needs no hashing of the text.
    let typed: Vec<&Action> = history
        .iter()
        .flatten()
        .filter(|a| matches!(a, Action::Type { .. }))
        .collect();
    typed.iter().find_map(|candidate| {
        let count = typed.iter().filter(|a| **a == *candidate).count();
        (count >= n).then(|| EarlyStopReason::RepeatedType {
            action: (*candidate).clone(),
            count,
        })
    })
}

/// The last `n` entries, or `None` if the rule is off (`n == 0`) or there are fewer.
fn last_n(history: &[Option<Action>], n: usize) -> Option<&[Option<Action>]> {
    (n > 0 && history.len() >= n).then(|| &history[history.len() - n..])
}

#[cfg(test)]
#[path = "early_stop_tests.rs"]
mod tests;
