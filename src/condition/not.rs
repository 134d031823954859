//! The negation of a condition, e.g. "a page whose URL does not contain `kiwix`".
//!
//! MMInA's Wikipedia hop completes when the agent has left the Kiwix viewer, which a
//! positive URL condition cannot say. A negation is decided only on an event that
//! carries every kind of evidence its inner condition is about: "not on a Kiwix
//! page" says nothing about an answer, so it must not hold for one.

use super::{Condition, Evidence};
use crate::event::{Event, EventBody};
use crate::judge::{Judge, JudgeError};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct NotCondition {
    /// Holds when this condition does not, decided only on events that carry what it
    /// is about (a negated URL condition never holds for an answer).
    pub condition: Box<Condition>,
}

impl NotCondition {
    pub fn new(condition: Condition) -> Self {
        NotCondition {
            condition: Box::new(condition),
        }
    }

    pub(super) fn holds(&self, event: &Event, judge: &mut dyn Judge) -> Result<bool, JudgeError> {
        if !self.decidable_on(event) {
            return Ok(false);
        }
        Ok(!self.condition.holds(event, judge)?)
    }

    /// Whether `event` carries every kind of evidence the inner condition mentions.
    fn decidable_on(&self, event: &Event) -> bool {
        [Evidence::Url, Evidence::Answer, Evidence::PageText]
            .into_iter()
            .filter(|e| self.condition.mentions(*e))
            .all(|e| carries(event, e))
    }
}

/// A page-text report carries its page's URL too; a navigation carries only the URL.
fn carries(event: &Event, evidence: Evidence) -> bool {
    matches!(
        (&event.body, evidence),
        (EventBody::Navigation { .. }, Evidence::Url)
            | (
                EventBody::PageText { .. },
                Evidence::Url | Evidence::PageText
            )
            | (EventBody::Answer { .. }, Evidence::Answer)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::condition::{AnswerCondition, UrlCondition};
    use crate::judge::NoJudge;

    fn not_kiwix() -> Condition {
        Condition::Not(NotCondition::new(Condition::Url(UrlCondition::contains(
            "kiwix",
            vec![],
        ))))
    }

    #[test]
    fn negates_a_url_condition_on_events_with_a_url() {
        let c = not_kiwix();
        let nav = |url| Event::navigation(1, 0, 0, url);
        assert!(c
            .holds(&nav("https://www.eventbrite.com/"), &mut NoJudge)
            .unwrap());
        assert!(!c
            .holds(
                &nav("http://kiwix.localhost:8201/viewer#wikipedia_en/A/Tokyo"),
                &mut NoJudge
            )
            .unwrap());
        let text = Event::page_text(1, 0, 0, "https://www.eventbrite.com/", "events");
        assert!(c.holds(&text, &mut NoJudge).unwrap());
    }

    #[test]
    fn says_nothing_about_events_without_its_evidence() {
        // An answer has no URL: "not on a Kiwix page" is undecided there, so false.
        let answer = Event::answer(1, 0, "kiwix");
        assert!(!not_kiwix().holds(&answer, &mut NoJudge).unwrap());
        assert!(!not_kiwix().is_triggered_by(&answer));
        let not_answer = Condition::Not(NotCondition::new(Condition::Answer(AnswerCondition {
            must_include: vec!["tokyo".into()],
            ..Default::default()
        })));
        let nav = Event::navigation(1, 0, 0, "https://www.eventbrite.com/");
        assert!(!not_answer.holds(&nav, &mut NoJudge).unwrap());
        assert!(not_answer
            .holds(&Event::answer(1, 0, "Paris"), &mut NoJudge)
            .unwrap());
    }
}
