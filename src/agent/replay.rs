//! Replay: instead of asking a model, follow the task's `reference_trajectory`. Each
//! step's `{role 'name'}` becomes the id of the first observation line with exactly
//! that role and name, and a reply in the chain-of-thought shape is made up for it,
//! so the step goes on (and is recorded) exactly like a model's, with zero usage.

use super::commands::{Command, FinishCause};
use super::lines::find_element;
use super::state::Agent;
use crate::model::{ModelReply, Usage};
use crate::task::ReferenceStep;

impl Agent {
    /// Called once the step's observation is in the draft.
    pub(super) fn replay_step(&mut self) -> Vec<Command> {
        let index = self.history.len();
        let Some(text) = self.task.reference_trajectory.get(index).cloned() else {
            // begin_step never observes past the end; kept total in case it changes.
            let reason = format!("no reference_trajectory[{index}] to replay");
            return self.replay_failed(reason);
        };
        let observation = self
            .draft
            .observation
            .as_ref()
            .map(|o| o.text.as_str())
            .unwrap_or_default();
        let step = match ReferenceStep::parse(&text) {
            Ok(step) => step,
            // Task validation refuses such steps; a state written by an older version
            // could still hold one.
            Err(e) => {
                return self.replay_failed(format!("reference_trajectory[{index}] {text:?}: {e}"))
            }
        };
        let (action_text, why) = match step.target() {
            // Without a target the text is used as written; the id goes nowhere.
            None => (step.with_id(0), String::new()),
            Some(target) => match find_element(observation, target) {
                Some(id) => (step.with_id(id), format!(", where {target} is [{id}]")),
                None => {
                    let reason = format!(
                        "replay of reference_trajectory[{index}] {text:?} failed at step {}: \
                         no element {target} in the observation",
                        self.step
                    );
                    return self.replay_failed(reason);
                }
            },
        };
        self.draft.note = Some(format!("replay of reference_trajectory[{index}]"));
        let reply = ModelReply {
            text: format!(
                "Replaying reference_trajectory[{index}]: {text}{why}. In summary, the next \
                 action I will perform is ```{action_text}```"
            ),
            usage: Usage::default(),
            reasoning: None,
        };
        self.on_model_replied(reply, Vec::new())
    }

    /// The step is recorded as a no-op with the reason, and the run ends.
    fn replay_failed(&mut self, reason: String) -> Vec<Command> {
        self.draft.note = Some(reason.clone());
        let mut commands = vec![self.record_step(None)];
        commands.extend(self.finish(FinishCause::ReplayFailed, reason, None));
        commands
    }
}
