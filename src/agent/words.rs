//! Actions in words for people: `click [12]` on an observation where `[12]` is
//! `link 'Tokyo'` reads "Clicked link 'Tokyo'". The run views show this instead of
//! the bare action text, whose ids mean nothing without the observation.

use serde::Serialize;

use super::lines::{element_label, element_text};
use crate::action::Action;

/// An action as the run views show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ActionWords {
    /// The action's kind (`click`, `type`, ...).
    pub kind: &'static str,
    /// The element's role and name as the observation printed them (`link 'Tokyo'`),
    /// when the action names an element the observation shows.
    pub element: Option<String>,
    /// One sentence in the past tense: "Typed "Tokyo" into searchbox 'Search', then
    /// pressed Enter".
    pub words: String,
}

/// Describes `action` as chosen on `observation` (the step's observation text).
pub fn action_in_words(action: &Action, observation: &str) -> ActionWords {
    let element_of = |id: u32| element_text(observation, id).map(element_label);
    let named = |id: u32| match element_of(id) {
        Some(element) => element.to_string(),
        None => format!("[{id}] (not in the observation)"),
    };
    let (element, words) = match action {
        Action::Click { id } => (element_of(*id), format!("Clicked {}", named(*id))),
        Action::Hover { id } => (element_of(*id), format!("Hovered over {}", named(*id))),
        Action::Type {
            id,
            text,
            press_enter,
        } => {
            let then = if *press_enter {
                ", then pressed Enter"
            } else {
                ""
            };
            (
                element_of(*id),
                format!("Typed {text:?} into {}{then}", named(*id)),
            )
        }
        Action::Press { key_comb } => (None, format!("Pressed {key_comb}")),
        Action::Scroll { direction } => (None, format!("Scrolled {}", direction.as_str())),
        Action::NewTab => (None, "Opened a new tab".to_string()),
        Action::TabFocus { index } => (None, format!("Switched to tab {index}")),
        Action::CloseTab => (None, "Closed the tab".to_string()),
        Action::Goto { url } => (None, format!("Went to {url}")),
        Action::GoBack => (None, "Went back".to_string()),
        Action::GoForward => (None, "Went forward".to_string()),
        Action::Stop { answer } => (None, stop_words(answer)),
    };
    ActionWords {
        kind: action.kind().name(),
        element: element.map(str::to_string),
        words,
    }
}

fn stop_words(answer: &str) -> String {
    match answer {
        "" => "Stopped without an answer".to_string(),
        "N/A" => "Stopped: the task cannot be done (N/A)".to_string(),
        _ => format!("Answered {answer:?}"),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a panic is the failure report")]

    use super::super::lines::SAMPLE_OBSERVATION as OBSERVATION;
    use super::*;

    fn words(text: &str) -> ActionWords {
        action_in_words(&Action::parse(text).unwrap(), OBSERVATION)
    }

    #[test]
    fn element_actions_name_the_element_without_its_properties() {
        let click = words("click [12]");
        assert_eq!(click.words, "Clicked link 'Tokyo'");
        assert_eq!(click.element.as_deref(), Some("link 'Tokyo'"));
        assert_eq!(click.kind, "click");
        assert_eq!(
            words("hover [14]").words,
            "Hovered over link \"Rock 'n' roll\""
        );
        assert_eq!(words("click [17]").words, "Clicked button 'a \\'b\\' c'");
        assert_eq!(
            words("type [13] [Tokyo] [1]").words,
            "Typed \"Tokyo\" into searchbox 'Search', then pressed Enter"
        );
        assert_eq!(
            words("type [13] [Tokyo] [0]").words,
            "Typed \"Tokyo\" into searchbox 'Search'"
        );
    }

    #[test]
    fn an_id_the_observation_lacks_is_said_so() {
        let missing = words("click [99]");
        assert_eq!(missing.words, "Clicked [99] (not in the observation)");
        assert_eq!(missing.element, None);
    }

    #[test]
    fn other_actions_read_as_sentences() {
        assert_eq!(words("scroll [down]").words, "Scrolled down");
        assert_eq!(words("press [Control+k]").words, "Pressed Control+k");
        assert_eq!(words("new_tab").words, "Opened a new tab");
        assert_eq!(words("tab_focus [1]").words, "Switched to tab 1");
        assert_eq!(words("close_tab").words, "Closed the tab");
        assert_eq!(
            words("goto [http://x.test/]").words,
            "Went to http://x.test/"
        );
        assert_eq!(words("go_back").words, "Went back");
        assert_eq!(words("go_forward").words, "Went forward");
        assert_eq!(words("stop [Tokyo]").words, "Answered \"Tokyo\"");
        assert_eq!(
            words("stop [N/A]").words,
            "Stopped: the task cannot be done (N/A)"
        );
        assert_eq!(words("stop []").words, "Stopped without an answer");
    }
}
