//! The transitions of one step: observation → prompt → model reply → action → record.

use serde_json::Value;

use super::commands::{Command, FinishCause};
use super::config::AgentKind;
use super::events::{ModelFailure, ObservedImage, Picture};
use super::http_agent::Seen;
use super::machine::Ending;
use super::prompt::{
    act_failed_feedback, cut_observation, malformed_feedback, previous_action_text,
    system_prompt_with_memory, turn_parts, turn_text, TurnInput,
};
use super::record::{
    ActResult, ActionRecord, ModelErrorRecord, ObservationRecord, PromptRecord, ReplyRecord,
    StepRecord, Tokens,
};
use super::state::{Agent, Phase};
use crate::action::{extract_action, Action};
use crate::agent_protocol::{PastStep, TabBrief};
use crate::evaluator::Progress;
use crate::judge::Judgement;
use crate::memory::{memory_action_text, site_of, MemoryStep};
use crate::model::{Message, ModelReply, ModelRequest, Role};
use crate::provider::ErrorKind;

impl Agent {
    pub(super) fn on_observed(
        &mut self,
        text: String,
        url: String,
        images: &[ObservedImage],
        screenshot: Option<&Picture>,
        tabs: Vec<TabBrief>,
    ) -> Vec<Command> {
        let (shown, cut) = match self.config.max_obs_tokens {
            Some(max) => cut_observation(&text, max),
            None => (text.clone(), None),
        };
        // The feedback goes into this step's prompt (or request); it must not reach the
        // next one too.
        let feedback = self.feedback.take();
        let user = turn_text(&TurnInput {
            observation: &shown,
            url: &url,
            objective: &self.objective,
            previous_action: self.previous_action.as_deref().unwrap_or("None"),
            feedback: feedback.as_deref(),
        });
        self.draft.observation = Some(ObservationRecord {
            text,
            url: url.clone(),
        });
        self.draft.user_prompt = Some(user.clone());
        self.draft.observation_cut = cut;
        if self.config.replay {
            return self.replay_step();
        }
        if self.config.agent == AgentKind::Http {
            let seen = Seen {
                text: shown,
                url,
                tabs,
                images,
                screenshot,
            };
            return self.http_step(seen, user, feedback);
        }
        let parts = turn_parts(
            user.clone(),
            self.config.observation_mode,
            images,
            screenshot,
        );
        if self.config.agent == AgentKind::Modular {
            return self.modular_plan(user, parts);
        }
        let request = ModelRequest {
            system: self.system_prompt(),
            messages: vec![Message {
                role: Role::User,
                parts,
            }],
            temperature: self.config.temperature,
            max_tokens: self.config.max_tokens,
            agent: None,
        };
        self.phase = Phase::Thinking;
        vec![Command::CallModel {
            step: self.step,
            request,
            call: 0,
        }]
    }

    /// A reply (the model's, or one made up by replay) becomes an `act`, or a
    /// recorded no-op step with feedback when it holds no usable action.
    pub(super) fn on_model_replied(
        &mut self,
        reply: ModelReply,
        attempts: Vec<Value>,
    ) -> Vec<Command> {
        if self.config.agent == AgentKind::Http {
            return self.on_http_reply(reply, attempts);
        }
        let extracted = extract_action(&reply.text);
        self.draft.reply = Some(ReplyRecord::new(&reply.text, reply.usage, attempts, None));
        match extracted {
            Ok(found) => self.take_action(found.action),
            Err(error) => {
                self.draft.note = Some(format!("malformed reply: {error}"));
                let feedback = malformed_feedback(self.config.prompt_style, &error);
                let record = self.record_step(None);
                self.feedback = Some(feedback);
                self.next_step(record)
            }
        }
    }

    /// The step's action is chosen: a `stop` on a task with a judged answer goes to
    /// the judge first, anything else is carried out.
    pub(super) fn take_action(&mut self, action: Action) -> Vec<Command> {
        let judge_first = match &action {
            Action::Stop { answer } if self.task_asks_judge() => Some(answer.clone()),
            _ => None,
        };
        self.draft.action = Some(action);
        match judge_first {
            Some(answer) => {
                self.phase = Phase::Judging;
                vec![Command::Judge {
                    step: self.step,
                    answer,
                    with_model: !self.config.replay,
                }]
            }
            None => self.act(Vec::new()),
        }
    }

    /// The model client gave up (after its retries, for what may pass): a no-op
    /// step. It counts as a step without an action for the early-stop rules, as an
    /// unparseable reply does. A failure every later call would meet too (see
    /// [`ErrorKind::ends_run`]) ends the run instead, with the client's hint.
    pub(super) fn on_model_failed(
        &mut self,
        error: ModelFailure,
        attempts: Vec<Value>,
    ) -> Vec<Command> {
        let note = format!("the model call failed ({}): {}", error.kind, error.message);
        let kind = ErrorKind::from_name(&error.kind);
        let ends_run = kind.is_some_and(ErrorKind::ends_run);
        // The two a person fixes in the run's settings have a cause of their own, so
        // results and reports can say which it was (and a batch can stop on the first).
        let cause = match kind {
            Some(ErrorKind::ContextOverflow) => FinishCause::ContextOverflow,
            Some(ErrorKind::UnsupportedInput) => FinishCause::UnsupportedInput,
            _ => FinishCause::ModelUnavailable,
        };
        let hint = error.hint.clone();
        if let Some(call) = self.draft.modular.as_mut().and_then(|m| m.calls.last_mut()) {
            call.error = Some(note.clone());
        }
        self.draft.note = Some(note.clone());
        self.draft.model_error = Some(ModelErrorRecord { error, attempts });
        let record = self.record_step(None);
        if !ends_run {
            return self.next_step(record);
        }
        let mut commands = vec![record];
        let reason = format!("the run cannot go on: {note}");
        let ending = Ending {
            hint,
            error_kind: kind,
            ..Ending::default()
        };
        commands.extend(self.end(cause, reason, ending));
        commands
    }

    /// The judge's verdicts on the answer: the `stop` is carried out with them.
    pub(super) fn on_judged(&mut self, judgements: Vec<Judgement>) -> Vec<Command> {
        self.draft.judgements = judgements.clone();
        self.act(judgements)
    }

    /// The draft's action, to be carried out.
    fn act(&mut self, judgements: Vec<Judgement>) -> Vec<Command> {
        let action_text = self
            .draft
            .action
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        self.phase = Phase::Acting;
        vec![Command::Act {
            step: self.step,
            action_text,
            judgements,
        }]
    }

    /// Whether an answer to this task is scored by a judge somewhere (final answer or
    /// a hop), so a `stop` needs the judge's verdicts first.
    fn task_asks_judge(&self) -> bool {
        let task = &self.task;
        task.final_answer
            .as_ref()
            .is_some_and(|fa| !fa.condition.fuzzy_match.is_empty())
            || task.hops.iter().any(|h| h.condition.asks_judge())
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
        // A `stop` ends the run whatever the hops say (the verdict scores them). With
        // every hop done the run is over too, unless the task still wants its final
        // answer: then the agent goes on until it gives one (or a limit stops it).
        let all_done =
            self.progress.as_ref().is_some_and(|p| p.at_end) && self.task.final_answer.is_none();
        if let Some(answer) = answer {
            let mut commands = vec![record];
            commands.extend(self.finish(
                FinishCause::Answered,
                format!("the agent stopped with the answer {answer:?}"),
                Some(answer),
            ));
            commands
        } else if all_done {
            let mut commands = vec![record];
            commands.extend(self.finish(
                FinishCause::AllHopsDone,
                "all hops completed".to_string(),
                None,
            ));
            commands
        } else {
            self.next_step(record)
        }
    }

    /// Turns the draft into the step's one record and remembers what the next
    /// prompt and the early-stop rules need from it.
    pub(super) fn record_step(&mut self, result: Option<ActResult>) -> Command {
        let stages = self.draft.modular.as_ref().map(|m| {
            self.stages_record(
                m,
                self.draft
                    .observation
                    .as_ref()
                    .map_or("", |o| o.text.as_str()),
            )
        });
        let draft = std::mem::take(&mut self.draft);
        let observation = draft.observation.unwrap_or_default();
        self.previous_action = draft
            .action
            .as_ref()
            .map(|a| previous_action_text(a, &observation.text));
        self.no_action_note = match &draft.action {
            Some(_) => None,
            None => draft.note.clone(),
        };
        if self.config.agent == AgentKind::Http {
            self.past.push(PastStep {
                step: self.step,
                url: observation.url.clone(),
                action: draft.action.as_ref().map(ToString::to_string),
                error: result.as_ref().and_then(|r| r.error.clone()),
                note: draft.note.clone(),
            });
        }
        self.history.push(draft.action.clone());
        self.trail.push(MemoryStep {
            action: draft
                .action
                .as_ref()
                .map(|a| memory_action_text(a, &observation.text)),
            site: site_of(&observation.url),
        });
        // The modular agent's calls all count, the ones before a failed call too.
        let mut tokens = match (&draft.modular, &draft.reply) {
            (Some(m), _) => Tokens::from(m.usage),
            (None, Some(r)) => Tokens::from(r.usage),
            (None, None) => Tokens::default(),
        };
        for judged in &draft.judgements {
            tokens.input += judged.usage.input_tokens;
            tokens.output += judged.usage.output_tokens;
            tokens.cached_input += judged.usage.cached_input_tokens;
        }
        let record = StepRecord {
            step: self.step,
            observation,
            prompt: PromptRecord {
                // A modular step's prompt is its planning stage's (the others are in
                // `stages`).
                system: draft
                    .modular
                    .as_ref()
                    .and_then(|m| m.calls.first())
                    .map_or_else(|| self.system_prompt(), |c| c.system.clone()),
                user: draft.user_prompt.unwrap_or_default(),
                observation_cut: draft.observation_cut,
            },
            reply: draft.reply,
            model_error: draft.model_error,
            action: draft.action.map(|a| ActionRecord {
                text: a.to_string(),
            }),
            result,
            judgements: draft.judgements,
            progress: self.progress.clone(),
            tokens,
            note: draft.note,
            stages,
        };
        Command::Record {
            step: self.step,
            record: Box::new(record),
        }
    }

    /// After a step's record: the next step, or the end.
    pub(super) fn next_step(&mut self, record: Command) -> Vec<Command> {
        self.step += 1;
        let mut commands = vec![record];
        commands.extend(self.begin_step());
        commands
    }

    fn system_prompt(&self) -> String {
        // A person's own agent gets data, not a prompt.
        if self.config.agent == AgentKind::Http {
            return String::new();
        }
        system_prompt_with_memory(
            self.config.prompt_style,
            self.config.observation_mode,
            self.config.observation_format,
            self.memory.as_deref(),
        )
    }
}
