//! Hop and answer conditions: plain data, evaluated against events.
//!
//! No site names live in code: an importer turns a dataset's checkpoints into these
//! values, and a task author writes them directly in a task file.

mod answer;
mod describe;
mod not;
mod page_text;
mod url;
pub mod url_parts;
mod validate;

pub use answer::{normalize_exact, AnswerCheck, AnswerCondition};
pub use not::NotCondition;
pub use page_text::PageTextCondition;
pub use url::{MatchOp, UrlCondition, UrlPart};
pub use validate::FieldError;

use crate::event::{Event, EventBody};
use crate::judge::{Judge, JudgeError};
use serde::{Deserialize, Serialize};

/// A condition a hop (or the final answer) must satisfy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Condition {
    /// The URL of a page the session navigated to.
    Url(UrlCondition),
    /// The answer given (by `stop [answer]` or by a person).
    Answer(AnswerCondition),
    /// Text present on a page seen in the session.
    PageText(PageTextCondition),
    /// Every sub-condition holds for the same event.
    All {
        #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
        of: Vec<Condition>,
    },
    /// At least one sub-condition holds.
    Any {
        #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
        of: Vec<Condition>,
    },
    /// The sub-condition does not hold (decided only on events that carry what it is
    /// about: see `not.rs`).
    Not(NotCondition),
}

/// What kind of evidence a condition (or an event) is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    Url,
    Answer,
    PageText,
}

impl Condition {
    /// Whether checking an answer against this condition asks a judge (a
    /// `fuzzy_match` anywhere in it).
    pub fn asks_judge(&self) -> bool {
        match self {
            Condition::Answer(c) => !c.fuzzy_match.is_empty(),
            Condition::All { of } | Condition::Any { of } => of.iter().any(Condition::asks_judge),
            Condition::Not(c) => c.condition.asks_judge(),
            Condition::Url(_) | Condition::PageText(_) => false,
        }
    }

    /// Whether `event` should make this condition be checked at all.
    ///
    /// A condition is checked only on events of a kind it is about: a pure URL condition
    /// ignores page-text events even though they carry a URL. Without this rule a page
    /// text report on an already-credited URL could credit the next URL hop too, which
    /// is exactly the double credit from one URL that MMInA's released code gave.
    pub fn is_triggered_by(&self, event: &Event) -> bool {
        let primary = match event.body {
            EventBody::Navigation { .. } => Evidence::Url,
            EventBody::Answer { .. } => Evidence::Answer,
            EventBody::PageText { .. } => Evidence::PageText,
        };
        self.mentions(primary)
    }

    fn mentions(&self, evidence: Evidence) -> bool {
        match self {
            Condition::Url(_) => evidence == Evidence::Url,
            Condition::Answer(_) => evidence == Evidence::Answer,
            Condition::PageText(_) => evidence == Evidence::PageText,
            Condition::All { of } | Condition::Any { of } => {
                of.iter().any(|c| c.mentions(evidence))
            }
            Condition::Not(c) => c.condition.mentions(evidence),
        }
    }

    /// Whether the condition holds for `event`. Parts about evidence the event does not
    /// carry (e.g. an answer condition on a navigation) are false.
    pub fn holds(&self, event: &Event, judge: &mut dyn Judge) -> Result<bool, JudgeError> {
        Ok(match (self, &event.body) {
            (
                Condition::Url(c),
                EventBody::Navigation { url, .. } | EventBody::PageText { url, .. },
            ) => c.matches(url),
            (Condition::Answer(c), EventBody::Answer { text }) => c.check(text, judge)?.passed,
            (Condition::PageText(c), EventBody::PageText { text, .. }) => c.matches(text),
            (Condition::All { of }, _) => {
                for c in of {
                    if !c.holds(event, judge)? {
                        return Ok(false);
                    }
                }
                !of.is_empty()
            }
            (Condition::Any { of }, _) => {
                for c in of {
                    if c.holds(event, judge)? {
                        return Ok(true);
                    }
                }
                false
            }
            (Condition::Not(c), _) => c.holds(event, judge)?,
            _ => false,
        })
    }
}
