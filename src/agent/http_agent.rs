//! A person's own agent (`AgentKind::Http`): each step's request in the agent protocol
//! (`crate::agent_protocol`) and the reading of its one action. The rest of the step
//! (judging a `stop`, acting, recording, early stops) is the prompt agent's.

use serde_json::Value;

use super::commands::Command;
use super::events::{ObservedImage, Picture};
use super::record::ReplyRecord;
use super::state::{Agent, Phase};
use crate::action::Action;
use crate::agent_protocol::{
    ImageData, ObservationData, PictureData, StepRequest, TabBrief, TaskBrief, PROTOCOL_VERSION,
};
use crate::model::{Message, ModelReply, ModelRequest, Part, Role};
use crate::observation::ObservationFormat;

/// What the step observed, as the request tells it (`text` already cut to
/// `max_obs_tokens` when that is set).
pub(super) struct Seen<'a> {
    pub text: String,
    pub url: String,
    pub tabs: Vec<TabBrief>,
    pub images: &'a [ObservedImage],
    pub screenshot: Option<&'a Picture>,
}

impl Agent {
    /// The step's request to the agent, sent as a model call so it gets the same
    /// tries, timeouts and error kinds.
    pub(super) fn http_step(
        &mut self,
        seen: Seen<'_>,
        user: String,
        feedback: Option<String>,
    ) -> Vec<Command> {
        let request = StepRequest {
            protocol: PROTOCOL_VERSION,
            kind: "step",
            step: self.step,
            max_steps: self.config.max_steps,
            task: TaskBrief::of(&self.task),
            observation: ObservationData {
                format: match self.config.observation_format {
                    ObservationFormat::Mmina => "mmina",
                    ObservationFormat::Compact => "compact",
                }
                .to_string(),
                mode: self.config.observation_mode.name().to_string(),
                url: seen.url,
                text: seen.text,
                tabs: seen.tabs,
                images: seen
                    .images
                    .iter()
                    .map(|i| ImageData {
                        id: i.id,
                        mime: i.mime.clone(),
                        base64: i.base64.clone(),
                    })
                    .collect(),
                screenshot: seen.screenshot.map(|p| PictureData {
                    mime: p.mime.clone(),
                    base64: p.base64.clone(),
                }),
            },
            feedback,
            history: self.past.clone(),
            memory: self.memory.clone(),
        };
        // Plain structs with string keys: serialising them cannot fail.
        let body = serde_json::to_value(&request).unwrap_or_default();
        // The step's record keeps what was sent, pictures cut to their size: the
        // viewer shows it where a model's prompt would be.
        self.draft.user_prompt = Some(shown_request(&body));
        let request = ModelRequest {
            system: String::new(),
            messages: vec![Message {
                role: Role::User,
                parts: vec![Part::text(user)],
            }],
            temperature: self.config.temperature,
            max_tokens: self.config.max_tokens,
            agent: Some(body),
        };
        self.phase = Phase::Thinking;
        vec![Command::CallModel {
            step: self.step,
            request,
            call: 0,
        }]
    }

    /// The agent's reply holds one action, read strictly: a reply that is not one
    /// action is a step without an action, and the next request says why.
    pub(super) fn on_http_reply(
        &mut self,
        reply: ModelReply,
        attempts: Vec<Value>,
    ) -> Vec<Command> {
        let parsed = Action::parse(reply.text.trim());
        let text = reply.text.clone();
        self.draft.reply = Some(ReplyRecord::new(
            &reply.text,
            reply.usage,
            attempts,
            reply.reasoning,
        ));
        match parsed {
            Ok(action) => self.take_action(action),
            Err(error) => {
                self.draft.note = Some(format!(
                    "malformed reply: the agent's action {text:?} could not be read: {error}"
                ));
                let record = self.record_step(None);
                self.feedback = Some(format!(
                    "your previous action {text:?} was not carried out: {error}. Reply with \
                     exactly one action of the action language, e.g. click [ID] where ID is \
                     the number in brackets before an element of the observation."
                ));
                self.next_step(record)
            }
        }
    }
}

/// The request as JSON text with each picture's bytes replaced by their size.
fn shown_request(body: &Value) -> String {
    let mut shown = body.clone();
    let observation = &mut shown["observation"];
    if let Some(images) = observation["images"].as_array_mut() {
        images.iter_mut().for_each(cut_bytes);
    }
    if observation["screenshot"].is_object() {
        cut_bytes(&mut observation["screenshot"]);
    }
    serde_json::to_string_pretty(&shown).unwrap_or_default()
}

fn cut_bytes(picture: &mut Value) {
    let size = picture["base64"].as_str().map_or(0, str::len);
    picture["base64"] = Value::from(format!("({size} characters of base64)"));
}
