//! Actions as memory keeps them: the element an action touched is written
//! `{role 'name'}`, as the task's reference trajectories write it, because an `[id]`
//! is only valid in the observation it came from.

use crate::action::Action;
use crate::agent::{element_text, role_and_name};

/// The element `id` of `observation` as `{role 'name'}`, or a note that the
/// observation did not show it.
fn element_label(observation: &str, id: u32) -> String {
    match element_text(observation, id).and_then(role_and_name) {
        Some((role, "")) => format!("{{{role}}}"),
        Some((role, name)) => format!("{{{role} {name}}}"),
        None => format!("[{id}] (not in the observation)"),
    }
}

/// The action as a memory step: elements by role and name, and a `stop` without its
/// answer (see the module comment of `memory`).
pub fn memory_action_text(action: &Action, observation: &str) -> String {
    match action {
        Action::Click { id } => format!("click {}", element_label(observation, *id)),
        Action::Hover { id } => format!("hover {}", element_label(observation, *id)),
        Action::Type {
            id,
            text,
            press_enter,
        } => format!(
            "type {} [{text}] [{}]",
            element_label(observation, *id),
            u8::from(*press_enter)
        ),
        Action::Stop { .. } => "stop (with an answer, not kept in memory)".to_string(),
        other => other.to_string(),
    }
}
