//! Answer conditions: WebArena/MMInA string matching on a final answer.

use crate::judge::{Judge, JudgeError, JudgeRequest};
use serde::{Deserialize, Serialize};

/// Every check present must pass (as WebArena's `reference_answers` combine).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schemars(extend("anyOf" = [
    {"required": ["must_include"]},
    {"required": ["exact_match"]},
    {"required": ["fuzzy_match"]}
])))]
pub struct AnswerCondition {
    /// Each keyword must be a case-insensitive substring of the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(inner(pattern(r"\S"))))]
    pub must_include: Vec<String>,
    /// The answer must equal this after lowercasing and stripping one pair of quotes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(pattern(r"\S")))]
    pub exact_match: Option<String>,
    /// A judge must agree that each reference can be inferred from the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(inner(pattern(r"\S"))))]
    pub fuzzy_match: Vec<String>,
}

/// The outcome of checking one answer, with the reason for a failure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AnswerCheck {
    pub passed: bool,
    /// Human-readable notes: which keyword was missing, what the judge said.
    pub notes: Vec<String>,
}

impl AnswerCondition {
    pub fn is_empty(&self) -> bool {
        self.must_include.is_empty() && self.exact_match.is_none() && self.fuzzy_match.is_empty()
    }

    /// The judge questions a check of `answer` would ask, so an asynchronous caller can
    /// obtain the verdicts first and then evaluate with a map-backed judge.
    pub fn judge_requests(&self, answer: &str) -> Vec<JudgeRequest> {
        self.fuzzy_match
            .iter()
            .map(|r| JudgeRequest {
                answer: answer.to_string(),
                reference: r.clone(),
            })
            .collect()
    }

    pub fn check(&self, answer: &str, judge: &mut dyn Judge) -> Result<AnswerCheck, JudgeError> {
        let mut notes = Vec::new();
        if self.is_empty() {
            notes.push("the answer condition has no checks".to_string());
        }
        let lowered = answer.to_lowercase();
        for keyword in &self.must_include {
            let k = keyword.trim().to_lowercase();
            // An empty keyword would be a free pass; it never matches.
            if k.is_empty() || !lowered.contains(&k) {
                notes.push(format!("answer does not include {keyword:?}"));
            }
        }
        if let Some(expected) = &self.exact_match {
            if normalize_exact(answer) != normalize_exact(expected) {
                notes.push(format!("answer is not exactly {expected:?}"));
            }
        }
        for request in self.judge_requests(answer) {
            match judge.infers(&request) {
                Ok(true) => {}
                Ok(false) => notes.push(format!(
                    "judge: {:?} cannot be inferred from the answer",
                    request.reference
                )),
                // Asked but no verdict: the check fails and says why, never a silent pass.
                Err(JudgeError::Failed(why)) => notes.push(format!(
                    "judge: no verdict on {:?} ({why})",
                    request.reference
                )),
                Err(unavailable) => return Err(unavailable),
            }
        }
        Ok(AnswerCheck {
            passed: notes.is_empty(),
            notes,
        })
    }
}

/// Lowercases, trims and strips one pair of matching surrounding quotes.
pub fn normalize_exact(s: &str) -> String {
    let t = s.trim();
    let stripped = ['"', '\'']
        .iter()
        .find_map(|q| t.strip_prefix(*q).and_then(|r| r.strip_suffix(*q)))
        .unwrap_or(t);
    stripped.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::MapJudge;

    #[test]
    fn must_include_is_case_insensitive_and_needs_all() {
        let c = AnswerCondition {
            must_include: vec!["eventbrite".into(), "Tokyo".into()],
            ..Default::default()
        };
        let mut j = MapJudge::default();
        assert!(
            c.check("https://www.EVENTBRITE.com/d/japan--tokyo/events/", &mut j)
                .unwrap()
                .passed
        );
        let miss = c
            .check("https://www.eventbrite.com/d/ca--san-francisco/", &mut j)
            .unwrap();
        assert!(!miss.passed);
        assert_eq!(
            miss.notes,
            vec!["answer does not include \"Tokyo\"".to_string()]
        );
    }

    #[test]
    fn exact_match_strips_one_pair_of_quotes() {
        let c = AnswerCondition {
            exact_match: Some("Red".into()),
            ..Default::default()
        };
        let mut j = MapJudge::default();
        assert!(c.check(" \"red\" ", &mut j).unwrap().passed);
        assert!(c.check("'RED'", &mut j).unwrap().passed);
        assert!(!c.check("\"\"red\"\"", &mut j).unwrap().passed);
        assert!(!c.check("red tower", &mut j).unwrap().passed);
    }

    #[test]
    fn fuzzy_asks_the_judge_for_each_reference() {
        let c = AnswerCondition {
            fuzzy_match: vec!["gold".into()],
            ..Default::default()
        };
        let mut j = MapJudge::default();
        j.insert("it is yellow", "gold", true);
        j.insert("it is blue", "gold", false);
        assert!(c.check("it is yellow", &mut j).unwrap().passed);
        assert!(!c.check("it is blue", &mut j).unwrap().passed);
        assert!(c.check("unknown to the judge", &mut j).is_err());
    }

    #[test]
    fn a_judge_without_a_verdict_fails_the_check_and_says_why() {
        let c = AnswerCondition {
            fuzzy_match: vec!["gold".into()],
            ..Default::default()
        };
        let mut j = MapJudge::default();
        j.insert_failure("it is yellow", "gold", "the judge call failed: HTTP 500");
        let check = c.check("it is yellow", &mut j).unwrap();
        assert!(!check.passed);
        assert_eq!(
            check.notes,
            vec!["judge: no verdict on \"gold\" (the judge call failed: HTTP 500)".to_string()]
        );
    }

    #[test]
    fn empty_conditions_and_keywords_never_pass() {
        let mut j = MapJudge::default();
        assert!(
            !AnswerCondition::default()
                .check("anything", &mut j)
                .unwrap()
                .passed
        );
        let c = AnswerCondition {
            must_include: vec![String::new()],
            ..Default::default()
        };
        assert!(!c.check("anything", &mut j).unwrap().passed);
    }
}
