//! The modular agent (SeeAct-style), beside the prompt agent and sharing its commands,
//! events and records. Each step, after the observation:
//!
//! 1. candidate ranking ([`rank`], native): the page's actionable elements ranked by
//!    relevance to the task, the top `modular.candidates` kept and split into
//!    `modular.sections` sections;
//! 2. planning (a model call): the next action in words (`PLAN: click the link
//!    'Tokyo'`), or an action that needs no element written out (`scroll [down]`,
//!    `stop [answer]`), which ends the step's stages;
//! 3. grounding (a call per section): a lettered choice among the section's
//!    candidates, answered strictly as `ELEMENT / ACTION / VALUE` or `None`;
//! 4. action selection: the one viable answer, the first one (`first_viable`), or the
//!    model's choice among several (`model`, one more call).
//!
//! Calls are numbered within the step (`call` 1, 2, ...) and an answer is taken only
//! for the call in flight. Every stage's input and output is in the step record's
//! `stages`, with the stage log that diagnosis scores.

mod answers;
mod prompts;
mod rank;

pub use rank::{rank_candidates, sections, Candidate};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::commands::Command;
use super::config::{GroundingMode, SelectMode};
use super::record::{ReplyRecord, StageCall, StagesRecord};
use super::state::{Agent, Phase};
use crate::action::{extract_action, Action};
use crate::diagnosis::{Element, StepLog, Triplet};
use crate::model::{Message, ModelReply, ModelRequest, Part, Role, Usage};

/// Which stage the call in flight belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
// Read through one flat struct (`crate::serde_flat`): the stage is in every stored
// modular step.
#[serde(try_from = "StageFields")]
pub enum Stage {
    Planning,
    Grounding { section: usize },
    Selecting,
}

enum StageName {
    Planning,
    Grounding,
    Selecting,
}

crate::serde_flat::unit_enum_deserialize!(StageName, "StageName", {
    Planning = "planning",
    Grounding = "grounding",
    Selecting = "selecting",
});

/// A `Stage` object as written: `stage` names the variant; `section` is grounding's.
#[derive(Deserialize)]
struct StageFields {
    stage: StageName,
    section: Option<usize>,
}

impl TryFrom<StageFields> for Stage {
    type Error = String;

    fn try_from(f: StageFields) -> Result<Stage, String> {
        Ok(match f.stage {
            StageName::Planning => Stage::Planning,
            StageName::Grounding => Stage::Grounding {
                section: crate::serde_flat::need(f.section, "section")?,
            },
            StageName::Selecting => Stage::Selecting,
        })
    }
}

/// What the step's stages have produced so far (part of the stored state).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModularDraft {
    /// The call in flight, from 1.
    pub call: u32,
    pub stage: Stage,
    pub candidates: Vec<Candidate>,
    /// Indices into `candidates`.
    pub sections: Vec<Vec<usize>>,
    pub plan: Option<String>,
    pub plan_target: Option<Element>,
    /// Per section grounded so far: the action, or `None` for "None".
    pub grounded: Vec<Option<Action>>,
    /// Index into `grounded` of the chosen action.
    pub selected: Option<usize>,
    /// An action the plan wrote out itself (it needs no element).
    pub direct: Option<Action>,
    pub calls: Vec<StageCall>,
    pub usage: Usage,
    /// The step's pictures, kept for visual grounding only (textual grounding keeps
    /// none, so the stored state stays small).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pictures: Vec<Part>,
}

impl Agent {
    /// Starts the step's stages: ranks the candidates and asks for the plan with the
    /// turn (`parts`: the user text and the mode's pictures).
    pub(super) fn modular_plan(&mut self, user: String, parts: Vec<Part>) -> Vec<Command> {
        let observation = self.observation_text().to_string();
        let settings = self.config.modular;
        let candidates =
            rank_candidates(&observation, &self.objective, settings.candidates as usize);
        let sections = sections(candidates.len(), settings.sections as usize);
        let system = prompts::planning_system(
            self.config.observation_mode,
            self.config.observation_format,
            self.memory.as_deref(),
        );
        let pictures = match settings.grounding {
            GroundingMode::Visual => parts
                .iter()
                .filter(|p| matches!(p, Part::Image { .. }))
                .cloned()
                .collect(),
            GroundingMode::Textual => Vec::new(),
        };
        self.draft.modular = Some(ModularDraft {
            call: 1,
            stage: Stage::Planning,
            candidates,
            sections,
            plan: None,
            plan_target: None,
            grounded: Vec::new(),
            selected: None,
            direct: None,
            calls: vec![StageCall::asked("planning", &system, &user)],
            usage: Usage::default(),
            pictures,
        });
        self.phase = Phase::Thinking;
        vec![Command::CallModel {
            step: self.step,
            request: self.request(system, parts),
            call: 1,
        }]
    }

    /// Whether `call` is the modular call in flight (a prompt-agent step has none).
    pub(super) fn modular_waits_for(&self, call: u32) -> Option<bool> {
        self.draft.modular.as_ref().map(|m| m.call == call)
    }

    pub(super) fn on_modular_reply(
        &mut self,
        reply: ModelReply,
        attempts: Vec<Value>,
    ) -> Vec<Command> {
        let Some(mut m) = self.draft.modular.take() else {
            return self.on_model_replied(reply, attempts);
        };
        m.usage.input_tokens += reply.usage.input_tokens;
        m.usage.output_tokens += reply.usage.output_tokens;
        m.usage.cached_input_tokens += reply.usage.cached_input_tokens;
        if let Some(last) = m.calls.last_mut() {
            last.reply = Some(crate::agent::record::kept_reply(&reply.text).0);
        }
        match m.stage.clone() {
            Stage::Planning => {
                self.draft.reply = Some(ReplyRecord::new(&reply.text, reply.usage, attempts, None));
                match extract_action(&reply.text) {
                    Ok(found) if !takes_element(&found.action) => {
                        m.direct = Some(found.action);
                        self.modular_done(m)
                    }
                    _ => {
                        let plan = answers::plan_line(&reply.text);
                        let page = Element::all_in_observation(self.observation_text());
                        m.plan_target = answers::plan_target(&plan, &m.candidates, &page);
                        m.plan = Some(plan);
                        self.modular_ground(m, 0)
                    }
                }
            }
            Stage::Grounding { section } => {
                let choices = section_candidates(&m, section);
                match answers::grounding_answer(&reply.text, &choices) {
                    Ok(action) => m.grounded.push(action),
                    Err(problem) => {
                        if let Some(last) = m.calls.last_mut() {
                            last.error =
                                Some(format!("unreadable answer, taken as None: {problem}"));
                        }
                        m.grounded.push(None);
                    }
                }
                self.modular_ground(m, section + 1)
            }
            Stage::Selecting => {
                let viable = viable(&m);
                let chosen = answers::selection_answer(&reply.text, viable.len());
                if chosen.is_none() {
                    if let Some(last) = m.calls.last_mut() {
                        last.error =
                            Some("no choice read; the first viable action is taken".into());
                    }
                }
                m.selected = viable.get(chosen.unwrap_or(0)).copied();
                self.modular_done(m)
            }
        }
    }

    /// Grounds section `section` (skipping empty ones), or moves on to selection.
    fn modular_ground(&mut self, mut m: ModularDraft, section: usize) -> Vec<Command> {
        if section < m.sections.len() {
            let choices = section_candidates(&m, section);
            let plan = m.plan.clone().unwrap_or_default();
            let user = prompts::grounding_user(&self.objective, &plan, &choices);
            let system = prompts::grounding_system(self.config.modular.grounding);
            m.calls.push(StageCall::asked(
                &format!("grounding {}", section + 1),
                &system,
                &user,
            ));
            // Visual grounding sends the step's pictures after the choices.
            let mut parts = vec![Part::text(user)];
            parts.extend(m.pictures.iter().cloned());
            return self.modular_call(m, Stage::Grounding { section }, system, parts);
        }
        let viable = viable(&m);
        if viable.len() > 1 && self.config.modular.select == SelectMode::Model {
            let observation = self.observation_text().to_string();
            let choices: Vec<String> = viable
                .iter()
                .filter_map(|&i| m.grounded.get(i).cloned().flatten())
                .map(|a| super::prompt::previous_action_text(&a, &observation))
                .collect();
            let plan = m.plan.clone().unwrap_or_default();
            let user = prompts::selection_user(&self.objective, &plan, &choices);
            let system = prompts::SELECTION_SYSTEM.to_string();
            m.calls.push(StageCall::asked("selection", &system, &user));
            return self.modular_call(m, Stage::Selecting, system, vec![Part::text(user)]);
        }
        m.selected = viable.first().copied();
        self.modular_done(m)
    }

    fn modular_call(
        &mut self,
        mut m: ModularDraft,
        stage: Stage,
        system: String,
        parts: Vec<Part>,
    ) -> Vec<Command> {
        m.call += 1;
        m.stage = stage;
        let call = m.call;
        self.draft.modular = Some(m);
        vec![Command::CallModel {
            step: self.step,
            request: self.request(system, parts),
            call,
        }]
    }

    /// The stages are over: the chosen action goes on like the prompt agent's, or the
    /// step is a no-op when no section grounded the plan.
    fn modular_done(&mut self, m: ModularDraft) -> Vec<Command> {
        let action = m.direct.clone().or_else(|| {
            m.selected
                .and_then(|i| m.grounded.get(i).cloned().flatten())
        });
        if let Some(reply) = self.draft.reply.as_mut() {
            reply.usage = m.usage;
        }
        let plan = m.plan.clone().unwrap_or_default();
        self.draft.modular = Some(m);
        match action {
            Some(action) => self.take_action(action),
            None => {
                self.draft.note = Some(format!(
                    "modular: no candidate element fits the plan {plan:?}"
                ));
                let record = self.record_step(None);
                self.feedback = Some(format!(
                    "none of the candidate elements matched your plan ({plan}). Name the \
                     element by its role and its exact name in quotes as the observation \
                     shows it, or plan another action."
                ));
                self.next_step(record)
            }
        }
    }

    /// The record's `stages` for a step of the modular agent (`None` otherwise).
    pub(super) fn stages_record(&self, m: &ModularDraft, observation: &str) -> StagesRecord {
        let triplet = |a: &Action| Triplet::of_action(a, observation);
        let grounded: Vec<Option<Triplet>> = match &m.direct {
            Some(direct) => vec![Some(triplet(direct))],
            None => m.grounded.iter().map(|g| g.as_ref().map(triplet)).collect(),
        };
        let selected = match &m.direct {
            Some(direct) => Some(triplet(direct)),
            None => m
                .selected
                .and_then(|i| m.grounded.get(i).cloned().flatten())
                .map(|a| triplet(&a)),
        };
        let executed = self.draft.action.as_ref().map(triplet);
        StagesRecord {
            agent: "modular".into(),
            candidates: m
                .candidates
                .iter()
                .map(|c| super::record::CandidateRecord {
                    id: c.id,
                    line: c.line.clone(),
                    score: (c.score * 1000.0).round() / 1000.0,
                })
                .collect(),
            sections: m
                .sections
                .iter()
                .map(|s| {
                    s.iter()
                        .filter_map(|&i| m.candidates.get(i).map(|c| c.id))
                        .collect()
                })
                .collect(),
            plan: m.plan.clone(),
            calls: m.calls.clone(),
            log: StepLog {
                sections: m
                    .sections
                    .iter()
                    .map(|s| {
                        s.iter()
                            .filter_map(|&i| m.candidates.get(i).map(|c| c.element.clone()))
                            .collect()
                    })
                    .collect(),
                plan_target: m.plan_target.clone(),
                grounded,
                selected,
                executed,
            },
        }
    }

    fn request(&self, system: String, parts: Vec<Part>) -> ModelRequest {
        ModelRequest {
            system,
            messages: vec![Message {
                role: Role::User,
                parts,
            }],
            temperature: self.config.temperature,
            max_tokens: self.config.max_tokens,
            agent: None,
        }
    }

    fn observation_text(&self) -> &str {
        self.draft
            .observation
            .as_ref()
            .map(|o| o.text.as_str())
            .unwrap_or_default()
    }
}

fn takes_element(action: &Action) -> bool {
    matches!(
        action,
        Action::Click { .. } | Action::Hover { .. } | Action::Type { .. }
    )
}

fn section_candidates(m: &ModularDraft, section: usize) -> Vec<&Candidate> {
    m.sections
        .get(section)
        .map(|s| s.iter().filter_map(|&i| m.candidates.get(i)).collect())
        .unwrap_or_default()
}

/// Indices into `grounded` of the sections that gave an action, in section order.
fn viable(m: &ModularDraft) -> Vec<usize> {
    m.grounded
        .iter()
        .enumerate()
        .filter(|(_, g)| g.is_some())
        .map(|(i, _)| i)
        .collect()
}
