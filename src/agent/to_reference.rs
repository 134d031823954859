//! A recorded trajectory (a person's session, or any run) as a task's
//! `reference_trajectory`: each `[id]` becomes the `{role 'name'}` of its line in the
//! observation the action was taken on, so the replay agent can follow it on pages
//! whose ids differ (`click [12]` → `click {link 'Tokyo'}`).
//!
//! Replay takes the first line with that role and name; a step whose element is not
//! the first such line would replay on another element, so it is reported as a
//! problem rather than written silently (the person can edit the step).

use serde::{Deserialize, Serialize};

use super::lines::{element_label, element_text, find_element};
use crate::action::Action;
use crate::task::ReferenceStep;

/// One recorded step: the action text and the observation it was chosen on.
#[derive(Debug, Clone, Deserialize)]
pub struct RecordedStep {
    pub action: String,
    pub observation: String,
    /// The page's URL when the step was taken (memory keeps its site); optional.
    #[serde(default)]
    pub url: Option<String>,
}

/// The converted trajectory, one entry per step that converted, and why the others
/// did not (1-based step numbers, as the run views count).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Converted {
    pub reference: Vec<String>,
    pub problems: Vec<StepProblem>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepProblem {
    pub step: usize,
    pub message: String,
}

/// Converts one action; the error says what keeps it from being a reference step.
pub fn reference_step(action_text: &str, observation: &str) -> Result<String, String> {
    let action = Action::parse(action_text).map_err(|e| format!("{action_text:?}: {e}"))?;
    let id = match &action {
        Action::Click { id } | Action::Hover { id } | Action::Type { id, .. } => *id,
        // No element: the canonical text is already a reference step.
        other => return Ok(other.to_string()),
    };
    let line = element_text(observation, id)
        .ok_or_else(|| format!("{action_text:?}: element [{id}] is not in its observation"))?;
    let target = element_label(line);
    if !target.contains(' ') {
        return Err(format!(
            "{action_text:?}: element [{id}] ({target}) has no name to find it by"
        ));
    }
    let text = match &action {
        Action::Type {
            text, press_enter, ..
        } => format!("type {{{target}}} [{text}] [{}]", u8::from(*press_enter)),
        other => format!("{} {{{target}}}", other.kind().name()),
    };
    let step = ReferenceStep::parse(&text).map_err(|e| format!("{text:?}: {e}"))?;
    let Some(parsed) = step.target() else {
        return Err(format!(
            "{text:?}: the element did not survive the conversion"
        ));
    };
    match find_element(observation, parsed) {
        Some(first) if first == id => Ok(text),
        Some(first) => Err(format!(
            "{action_text:?}: [{id}] is not the first {target} of its observation, so a replay \
             would act on [{first}] instead; edit the step by hand"
        )),
        None => Err(format!(
            "{text:?}: its element cannot be found again in the observation"
        )),
    }
}

/// Converts every step; the steps that cannot be converted are left out and listed.
pub fn reference_trajectory(steps: &[RecordedStep]) -> Converted {
    let mut out = Converted::default();
    for (i, step) in steps.iter().enumerate() {
        match reference_step(&step.action, &step.observation) {
            Ok(text) => out.reference.push(text),
            Err(message) => out.problems.push(StepProblem {
                step: i + 1,
                message,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a panic is the failure report")]

    use super::super::lines::SAMPLE_OBSERVATION as OBSERVATION;
    use super::*;

    #[test]
    fn element_actions_take_role_and_name() {
        assert_eq!(
            reference_step("click [12]", OBSERVATION).unwrap(),
            "click {link 'Tokyo'}"
        );
        assert_eq!(
            reference_step("hover [14]", OBSERVATION).unwrap(),
            "hover {link \"Rock 'n' roll\"}"
        );
        assert_eq!(
            reference_step("type [13] [Tokyo Tower] [1]", OBSERVATION).unwrap(),
            "type {searchbox 'Search'} [Tokyo Tower] [1]"
        );
        assert_eq!(
            reference_step("type [13] [x] [0]", OBSERVATION).unwrap(),
            "type {searchbox 'Search'} [x] [0]"
        );
    }

    #[test]
    fn actions_without_element_stay_as_they_are() {
        for text in [
            "scroll [down]",
            "go_back",
            "goto [http://a.test/]",
            "stop [Tokyo]",
            "tab_focus [1]",
        ] {
            assert_eq!(reference_step(text, OBSERVATION).unwrap(), text);
        }
    }

    #[test]
    fn a_step_replay_would_take_elsewhere_is_a_problem() {
        let error = reference_step("click [15]", OBSERVATION).unwrap_err();
        assert!(error.contains("not the first link 'Tokyo'"), "{error}");
        assert!(error.contains("[12]"), "{error}");
        let error = reference_step("click [99]", OBSERVATION).unwrap_err();
        assert!(error.contains("[99] is not in its observation"), "{error}");
        let error = reference_step("click [16]", OBSERVATION).unwrap_err();
        assert!(error.contains("no name"), "{error}");
    }

    #[test]
    fn converted_steps_replay_to_the_same_action() {
        for text in ["click [12]", "hover [14]", "type [13] [a [b] c] [1]"] {
            let reference = reference_step(text, OBSERVATION).unwrap();
            let step = ReferenceStep::parse(&reference).unwrap();
            let id = find_element(OBSERVATION, step.target().unwrap()).unwrap();
            assert_eq!(step.with_id(id), text);
        }
    }

    #[test]
    fn a_trajectory_lists_the_steps_left_out() {
        let steps = [
            RecordedStep {
                action: "click [12]".into(),
                observation: OBSERVATION.into(),
                url: None,
            },
            RecordedStep {
                action: "click [15]".into(),
                observation: OBSERVATION.into(),
                url: None,
            },
            RecordedStep {
                action: "stop [Tokyo]".into(),
                observation: OBSERVATION.into(),
                url: None,
            },
        ];
        let converted = reference_trajectory(&steps);
        assert_eq!(
            converted.reference,
            ["click {link 'Tokyo'}", "stop [Tokyo]"]
        );
        assert_eq!(converted.problems.len(), 1);
        assert_eq!(converted.problems[0].step, 2);
    }
}
