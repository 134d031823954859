//! FEEDBACK lines: why the previous step did nothing, so the model can correct itself.

use crate::action::{Action, ExtractError};
use crate::agent::config::PromptStyle;
use crate::agent::lines::element_text;

/// The previous reply held no usable action; `error` is the extractor's explanation.
/// The format is written with the placeholder `ID`, never a number: a small model
/// copied the number of an earlier example (`click [1234]`) back for steps on end.
pub fn malformed_feedback(style: PromptStyle, error: &ExtractError) -> String {
    let format = match style {
        PromptStyle::Cot => {
            "End the reply with: In summary, the next action I will perform is \
             ```click [ID]``` (one action from the list; ID is the number in brackets \
             before the element you chose in the observation)."
        }
        PromptStyle::Direct => {
            "Reply with one action from the list between triple backticks, e.g. \
             ```click [ID]``` where ID is the number in brackets before the element you \
             chose in the observation, and nothing else."
        }
    };
    format!("your previous reply was not carried out because it is malformed: {error}. {format}")
}

/// The action could not be carried out. An element action whose id the observation
/// did not show gets a message naming the missing element; anything else gets the
/// browser's reason.
pub fn act_failed_feedback(action: &Action, observation: &str, error: &str) -> String {
    let missing = match action {
        Action::Click { id } | Action::Hover { id } | Action::Type { id, .. } => {
            element_text(observation, *id).is_none().then_some(*id)
        }
        _ => None,
    };
    match missing {
        Some(id) => format!(
            "`{action}` was not carried out: there is no element [{id}] on the page ({error}). \
             Use only ids shown in the current observation."
        ),
        // Not "was not carried out": a driver that stopped mid-action reports an error
        // although the action may have run.
        None => format!("`{action}` failed: {error}."),
    }
}
