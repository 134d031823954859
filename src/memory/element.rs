//! Actions as memory keeps them: the element an action touched is written
//! `{role 'name'}`, as the task's reference trajectories write it, because an `[id]`
//! is only valid in the observation it came from.

use crate::action::Action;
use crate::agent::element_text;

/// `link 'Tokyo' focused: True` → (`link`, `'Tokyo'`): the role and the name as the
/// observation prints it (Python `repr`, quotes included). A line without a quoted
/// name gives the role and an empty name.
pub fn role_and_name(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    let (role, rest) = match line.split_once(' ') {
        Some((role, rest)) => (role, rest),
        None => (line, ""),
    };
    if role.is_empty() {
        return None;
    }
    let Some(quote) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') else {
        return Some((role, ""));
    };
    // The repr escapes its own quote and backslashes, so the first unescaped quote of
    // the same kind closes the name.
    let mut escaped = false;
    for (i, c) in rest.char_indices().skip(1) {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == quote {
            return Some((role, &rest[..i + c.len_utf8()]));
        }
    }
    Some((role, ""))
}

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
