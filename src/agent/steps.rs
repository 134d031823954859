//! The transitions of one step: observation → prompt → model reply → action → record.

use serde_json::Value;

use super::commands::{Command, FinishCause};
use super::events::{ModelFailure, ObservedImage, Picture};
use super::prompt::{
    act_failed_feedback, malformed_feedback, previous_action_text, system_prompt, turn_parts,
    turn_text, TurnInput,
};
use super::record::{
    ActResult, ActionRecord, ModelErrorRecord, ObservationRecord, PromptRecord, ReplyRecord,
    StepRecord, Tokens,
};
use super::state::{Agent, Phase};
use crate::action::{extract_action, Action};
use crate::evaluator::Progress;
use crate::model::{Message, ModelReply, ModelRequest, Role};

impl Agent {
    pub(super) fn on_observed(
        &mut self,
        text: String,
        url: String,
        images: &[ObservedImage],
        screenshot: Option<&Picture>,
    ) -> Vec<Command> {
        let user = turn_text(&TurnInput {
            observation: &text,
            url: &url,
            objective: &self.objective,
            previous_action: self.previous_action.as_deref().unwrap_or("None"),
            feedback: self.feedback.as_deref(),
        });
        // The feedback is in this prompt now; it must not reach the next one too.
        self.feedback = None;
        self.draft.observation = Some(ObservationRecord { text, url });
        self.draft.user_prompt = Some(user.clone());
        if self.config.replay {
            return self.replay_step();
        }
        let parts = turn_parts(user, self.config.observation_mode, images, screenshot);
        let request = ModelRequest {
            system: self.system_prompt(),
            messages: vec![Message {
                role: Role::User,
                parts,
            }],
            temperature: self.config.temperature,
            max_tokens: self.config.max_tokens,
        };
        self.phase = Phase::Thinking;
        vec![Command::CallModel {
            step: self.step,
            request,
        }]
    }

    /// A reply (the model's, or one made up by replay) becomes an `act`, or a
    /// recorded no-op step with feedback when it holds no usable action.
    pub(super) fn on_model_replied(
        &mut self,
        reply: ModelReply,
        attempts: Vec<Value>,
    ) -> Vec<Command> {
        let extracted = extract_action(&reply.text);
        self.draft.reply = Some(ReplyRecord {
            text: reply.text,
            usage: reply.usage,
            attempts,
        });
        match extracted {
            Ok(found) => {
                let action_text = found.action.to_string();
                self.draft.action = Some(found.action);
                self.phase = Phase::Acting;
                vec![Command::Act {
                    step: self.step,
                    action_text,
                }]
            }
            Err(error) => {
                self.draft.note = Some(format!("malformed reply: {error}"));
                let feedback = malformed_feedback(self.config.prompt_style, &error);
                let record = self.record_step(None);
                self.feedback = Some(feedback);
                self.next_step(record)
            }
        }
    }

    /// The model client gave up after its retries: a no-op step. It counts as an
    /// output without an action for the early-stop rules, as an unparseable reply does.
    pub(super) fn on_model_failed(
        &mut self,
        error: ModelFailure,
        attempts: Vec<Value>,
    ) -> Vec<Command> {
        self.draft.note = Some(format!(
            "the model call failed after its retries ({}): {}",
            error.kind, error.message
        ));
        self.draft.model_error = Some(ModelErrorRecord { error, attempts });
        let record = self.record_step(None);
        self.next_step(record)
    }

    pub(super) fn on_acted(
        &mut self,
        effect: Value,
        error: Option<String>,
        progress: Option<Progress>,
    ) -> Vec<Command> {
        if progress.is_some() {
            self.progress = progress;
        }
        let action = self.draft.action.clone();
        let feedback = match (&action, &error, &self.draft.observation) {
            (Some(action), Some(error), Some(observation)) => {
                Some(act_failed_feedback(action, &observation.text, error))
            }
            _ => None,
        };
        let record = self.record_step(Some(ActResult { effect, error }));
        self.feedback = feedback;
        let answer = match action {
            Some(Action::Stop { answer }) => Some(answer),
            _ => None,
        };
        let at_end = self.progress.as_ref().is_some_and(|p| p.at_end);
        if at_end {
            let mut commands = vec![record];
            commands.extend(self.finish(
                FinishCause::AllHopsDone,
                "all hops completed".to_string(),
                answer,
            ));
            commands
        } else if let Some(answer) = answer {
            let mut commands = vec![record];
            commands.extend(self.finish(
                FinishCause::Answered,
                format!("the agent stopped with the answer {answer:?}"),
                Some(answer),
            ));
            commands
        } else {
            self.next_step(record)
        }
    }

    /// Turns the draft into the step's one record and remembers what the next
    /// prompt and the early-stop rules need from it.
    pub(super) fn record_step(&mut self, result: Option<ActResult>) -> Command {
        let draft = std::mem::take(&mut self.draft);
        let observation = draft.observation.unwrap_or_default();
        self.previous_action = draft
            .action
            .as_ref()
            .map(|a| previous_action_text(a, &observation.text));
        self.history.push(draft.action.clone());
        let tokens = draft
            .reply
            .as_ref()
            .map_or(Tokens::default(), |r| Tokens::from(r.usage));
        let record = StepRecord {
            step: self.step,
            observation,
            prompt: PromptRecord {
                system: self.system_prompt(),
                user: draft.user_prompt.unwrap_or_default(),
            },
            reply: draft.reply,
            model_error: draft.model_error,
            action: draft.action.map(|a| ActionRecord {
                text: a.to_string(),
            }),
            result,
            progress: self.progress.clone(),
            tokens,
            note: draft.note,
        };
        Command::Record {
            step: self.step,
            record: Box::new(record),
        }
    }

    /// After a step's record: the next step, or the end.
    fn next_step(&mut self, record: Command) -> Vec<Command> {
        self.step += 1;
        let mut commands = vec![record];
        commands.extend(self.begin_step());
        commands
    }

    fn system_prompt(&self) -> String {
        system_prompt(self.config.prompt_style, self.config.observation_mode)
    }
}
