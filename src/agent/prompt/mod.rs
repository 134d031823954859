//! The prompts: a system text per (style, observation mode) with the role, what the
//! agent is shown, the 12 actions, the rules and two worked examples; and the user
//! turn with the current observation, URL, objective, previous action and feedback.
//!
//! To add a prompt style: a `PromptStyle` variant, a file here with its reply rule
//! and the example replies in that style (see `cot.rs`), and its arm in
//! [`system_prompt`].

mod actions;
mod budget;
mod cot;
mod direct;
mod examples;
mod feedback;
pub(crate) mod intro;
mod previous;
mod user;

pub use budget::{cut_observation, estimate_tokens, ObservationCut};
pub use examples::{Example, EXAMPLES};
pub use feedback::{act_failed_feedback, malformed_feedback};
pub use previous::previous_action_text;
pub use user::{turn_parts, turn_text, TurnInput};

use super::config::{ObservationMode, PromptStyle};
use crate::observation::ObservationFormat;

/// The whole system prompt for one style and observation mode, in MMInA's format.
pub fn system_prompt(style: PromptStyle, mode: ObservationMode) -> String {
    system_prompt_with_memory(style, mode, ObservationFormat::Mmina, None)
}

/// The system prompt with the procedural-memory section (`memory::memory_section`)
/// after the examples: like them it is other turns to learn from, and "Now the real
/// task begins" must stay the last thing before the task.
pub fn system_prompt_with_memory(
    style: PromptStyle,
    mode: ObservationMode,
    format: ObservationFormat,
    memory: Option<&str>,
) -> String {
    let (reply_rule, examples) = match style {
        PromptStyle::Cot => (
            cot::REPLY_RULE,
            examples::examples_text(|e| e.cot_reply, format),
        ),
        PromptStyle::Direct => (
            direct::REPLY_RULE,
            examples::examples_text(|e| e.direct_reply, format),
        ),
    };
    let mut parts = vec![
        intro::role_and_inputs(mode, format),
        actions::ACTIONS.to_string(),
        intro::rules(reply_rule),
        format!("Here are two examples of a turn and a good reply.\n\n{examples}"),
    ];
    parts.extend(memory.map(str::to_string));
    parts.push(intro::CLOSING.to_string());
    parts.join("\n\n")
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
