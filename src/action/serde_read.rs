//! Reading an [`Action`] from its JSON object (`{"kind": "type", "id": 3, ...}`)
//! through one flat struct (see `crate::serde_flat` for why): runs keep a history of
//! actions, so serde's tagged reading was in the wasm several times over.

use serde::Deserialize;

use super::key::KeyCombo;
use super::types::{Action, ActionKind, ScrollDirection};
use crate::serde_flat::need;

/// Every field any action kind has; `kind` says which of them must be present.
#[derive(Deserialize)]
pub(super) struct ActionFields {
    kind: ActionKind,
    id: Option<u32>,
    text: Option<String>,
    press_enter: Option<bool>,
    key_comb: Option<KeyCombo>,
    direction: Option<ScrollDirection>,
    index: Option<u32>,
    url: Option<String>,
    answer: Option<String>,
}

impl TryFrom<ActionFields> for Action {
    type Error = String;

    fn try_from(f: ActionFields) -> Result<Action, String> {
        Ok(match f.kind {
            ActionKind::Click => Action::Click {
                id: need(f.id, "id")?,
            },
            ActionKind::Hover => Action::Hover {
                id: need(f.id, "id")?,
            },
            ActionKind::Type => Action::Type {
                id: need(f.id, "id")?,
                text: need(f.text, "text")?,
                press_enter: need(f.press_enter, "press_enter")?,
            },
            ActionKind::Press => Action::Press {
                key_comb: need(f.key_comb, "key_comb")?,
            },
            ActionKind::Scroll => Action::Scroll {
                direction: need(f.direction, "direction")?,
            },
            ActionKind::NewTab => Action::NewTab,
            ActionKind::TabFocus => Action::TabFocus {
                index: need(f.index, "index")?,
            },
            ActionKind::CloseTab => Action::CloseTab,
            ActionKind::Goto => Action::Goto {
                url: need(f.url, "url")?,
            },
            ActionKind::GoBack => Action::GoBack,
            ActionKind::GoForward => Action::GoForward,
            ActionKind::Stop => Action::Stop {
                answer: need(f.answer, "answer")?,
            },
        })
    }
}
