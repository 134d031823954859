//! The previous action as the next prompt shows it: with the line of the element it
//! targeted, read from the observation the action was chosen on, so the model knows
//! what `[12]` was even after the page changed.

use crate::action::Action;
use crate::agent::lines::element_text;

/// `click [12] where [12] is link 'Tokyo'`; actions without an element print as
/// themselves. An id the observation did not show is said to be missing.
pub fn previous_action_text(action: &Action, observation: &str) -> String {
    let id = match action {
        Action::Click { id } | Action::Hover { id } | Action::Type { id, .. } => *id,
        _ => return action.to_string(),
    };
    match element_text(observation, id) {
        Some(element) => format!("{action} where [{id}] is {element}"),
        None => format!("{action} where [{id}] was not in the observation"),
    }
}
