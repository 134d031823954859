//! The parts of the system prompt both styles share: who the agent is, what it is
//! shown each turn, and the rules.

use crate::agent::config::ObservationMode;
use crate::observation::ObservationFormat;

pub fn role_and_inputs(mode: ObservationMode, format: ObservationFormat) -> String {
    let mut text = String::from(
        "You are an agent that uses a web browser to carry out tasks for a person. \
A task may take several websites, visited one after the other; each part of it has to \
be completed on its site before the next part can count.

Every turn you are given:
- OBSERVATION: the tabs that are open, then the part of the current page that is on \
screen as an accessibility tree, ",
    );
    text.push_str(match format {
        ObservationFormat::Mmina => {
            "one element per line: `[id] role 'name'` followed by properties, indented \
under the element that contains it. The number in brackets is the element's id; \
actions name elements by it."
        }
        // The compact format has no indentation and writes text without ids.
        ObservationFormat::Compact => {
            "one line each, in page order: an element as `[id] role 'name'` followed by \
properties, text on the page as a plain line. The number in brackets is the element's \
id; actions name elements by it."
        }
    });
    text.push_str(media_line(mode));
    text.push_str(
        "
- URL: the address of the current page.
- OBJECTIVE: the task. It may list reference websites to use and say at which point a \
part of the task counts as finished.
- PREVIOUS ACTION: the action you chose last turn (None at the start), and FEEDBACK \
when that action or your reply could not be carried out.",
    );
    text
}

/// What comes with the text in each observation mode.
fn media_line(mode: ObservationMode) -> &'static str {
    match mode {
        ObservationMode::Text => "",
        ObservationMode::TextImages => {
            "
- IMAGES: the pictures visible on screen follow the text, each with the id of its \
image element written on it and named before it."
        }
        ObservationMode::TextScreenshot => {
            "
- SCREENSHOT: a picture of the visible part of the page follows the text."
        }
        ObservationMode::Som => {
            "
- SCREENSHOT: a picture of the visible part of the page follows the text, with a box \
drawn around each element you can act on and its id written beside the box; the ids \
are the same as in the text."
        }
    }
}

pub fn rules(reply_rule: &str) -> String {
    format!(
        "Rules:
1. Issue exactly one action per reply, and only an action that the current \
observation makes possible.
2. Use only ids that appear in the current observation.
3. {reply_rule}
4. Once the objective is met, or a part of it says the task ends at a certain point \
and you are there, issue `stop` with the answer asked for. Nothing you write after a \
`stop` is carried out.
5. If an action did not change the page, do not issue it again; try something else."
    )
}

pub const CLOSING: &str = "\
Now the real task begins. Reply to the turn that follows in the same way as the \
examples.";
