//! An action as diagnosis compares it: the element (role and name, as the page shows
//! it), the operation and its value. Ids are left out: they differ between visits.

use serde::{Deserialize, Serialize};

use crate::action::{Action, ActionKind};
use crate::agent::{element_lines, element_text, role_and_name};
use crate::observation::py_repr;
use crate::task::ReferenceStep;

/// An element by role and name; `name` is in the observation's `repr` spelling
/// (`'Tokyo'`), so an element read from an observation line and one written in a
/// reference step compare equal exactly when replay would pick the same line.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Element {
    pub role: String,
    pub name: String,
}

impl Element {
    /// The element `id` of an observation text.
    pub fn in_observation(observation: &str, id: u32) -> Option<Element> {
        let line = element_text(observation, id)?;
        let (role, name) = role_and_name(line)?;
        Some(Element {
            role: role.to_string(),
            name: name.to_string(),
        })
    }

    /// Every element line of an observation, in page order.
    pub fn all_in_observation(observation: &str) -> Vec<Element> {
        element_lines(observation)
            .filter_map(|(_, rest)| {
                let (role, name) = role_and_name(rest)?;
                Some(Element {
                    role: role.to_string(),
                    name: name.to_string(),
                })
            })
            .collect()
    }

    pub fn label(&self) -> String {
        if self.name.is_empty() {
            self.role.clone()
        } else {
            format!("{} {}", self.role, self.name)
        }
    }
}

/// The operation: the action language's kind.
pub type Op = ActionKind;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Triplet {
    pub element: Option<Element>,
    pub op: Op,
    /// Typed text, key, direction, URL, tab index; `None` for click, hover, tab
    /// actions without an argument, and `stop` (its answer is the evaluator's to score).
    pub value: Option<String>,
}

impl Triplet {
    /// An action taken on `observation` (to read its element's role and name).
    pub fn of_action(action: &Action, observation: &str) -> Triplet {
        let element = match action {
            Action::Click { id } | Action::Hover { id } | Action::Type { id, .. } => {
                Element::in_observation(observation, *id)
            }
            _ => None,
        };
        Triplet {
            element,
            op: action.kind(),
            value: value_of(action),
        }
    }

    /// A reference step (`click {link 'Tokyo'}`); `None` when it does not parse.
    pub fn of_reference(text: &str) -> Option<Triplet> {
        let step = ReferenceStep::parse(text).ok()?;
        let action = step.action(1).ok()?;
        let element = step.target().map(|t| Element {
            role: t.role.clone(),
            name: py_repr(&t.name),
        });
        Some(Triplet {
            element,
            op: action.kind(),
            value: value_of(&action),
        })
    }

    /// The same action: operation, element and value, values compared without case
    /// and surrounding space (and URLs without a trailing `/`).
    pub fn matches(&self, other: &Triplet) -> bool {
        self.op == other.op
            && self.element == other.element
            && self.value.as_deref().map(normal) == other.value.as_deref().map(normal)
    }

    /// Whether this action touches `element`.
    pub fn targets(&self, element: &Element) -> bool {
        self.element.as_ref() == Some(element)
    }
}

fn normal(value: &str) -> String {
    value.trim().trim_end_matches('/').to_lowercase()
}

fn value_of(action: &Action) -> Option<String> {
    match action {
        Action::Type { text, .. } => Some(text.clone()),
        Action::Press { key_comb } => Some(key_comb.to_string()),
        Action::Scroll { direction } => Some(direction.as_str().to_string()),
        Action::TabFocus { index } => Some(index.to_string()),
        Action::Goto { url } => Some(url.clone()),
        Action::Click { .. }
        | Action::Hover { .. }
        | Action::NewTab
        | Action::CloseTab
        | Action::GoBack
        | Action::GoForward
        | Action::Stop { .. } => None,
    }
}
