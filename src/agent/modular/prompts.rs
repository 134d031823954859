//! The modular agent's three prompts: planning (the next action in words), grounding
//! (a lettered choice among one section's candidates, strict answer format) and
//! selection (one of several grounded actions). Our wording, after SeeAct's stages.

use crate::observation::ObservationFormat;
use std::fmt::Write;

use super::rank::Candidate;
use crate::agent::config::{GroundingMode, ObservationMode};
use crate::agent::prompt::intro;

/// Letters for the choices; a section holds at most this many candidates.
pub const LETTERS: &[u8; 26] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";

const PLAN_RULE: &str = "\
Think about where the task stands and what to do next. Then end your reply with one \
line that states the next action in words:
PLAN: <the action>
Name the element by its role and its exact name in quotes, as the observation shows \
it, e.g. `PLAN: click the link 'Tokyo'` or `PLAN: type 'red shoes' into the \
searchbox 'Search'`. Another step will turn your plan into the concrete action.

If the next action needs no element of the page, write that action itself instead, \
between triple backticks, as the last thing in your reply:
- ```scroll [up]``` or ```scroll [down]```, ```go_back```, ```go_forward```
- ```goto [url]```, ```press [key_comb]``` (e.g. ```press [Enter]```)
- ```new_tab```, ```tab_focus [index]```, ```close_tab```
- ```stop [answer]``` once the objective is met, with the answer it asks for (empty if \
none; N/A if the task cannot be done).";

/// The planning system text: role and inputs as the prompt agent has them, the plan
/// rule, the memory section if any, and the closing line.
pub fn planning_system(
    mode: ObservationMode,
    format: ObservationFormat,
    memory: Option<&str>,
) -> String {
    let mut parts = vec![
        intro::role_and_inputs(mode, format),
        PLAN_RULE.to_string(),
        "Rules: plan one action at a time, only what the current observation makes \
         possible; if your last action did not change the page, plan something else."
            .to_string(),
    ];
    parts.extend(memory.map(str::to_string));
    parts.push(intro::CLOSING.to_string());
    parts.join("\n\n")
}

const GROUNDING_TASK: &str = "\
You turn a plan for the next browser action into one concrete choice. You are given \
the task, the plan, and a list of elements of the page, each after a letter.";

/// Visual grounding: the pictures come after the list.
const GROUNDING_PICTURES: &str = "\
After the list come pictures of the page as it is now: use them to tell apart elements \
whose text alone is ambiguous. An element's number in square brackets in the list is \
the id its box or picture is labelled with.";

const GROUNDING_ANSWER: &str = "\
Answer in exactly these three lines and nothing else:
ELEMENT: <the letter of the element the plan acts on, or None if no element of the list fits>
ACTION: <CLICK, TYPE, SELECT or HOVER>
VALUE: <the text to type or the option to select; None for CLICK and HOVER>";

/// The grounding system text for the variant: textual choices alone, or with the
/// step's pictures.
pub fn grounding_system(mode: GroundingMode) -> String {
    match mode {
        GroundingMode::Textual => format!("{GROUNDING_TASK} {GROUNDING_ANSWER}"),
        GroundingMode::Visual => {
            format!("{GROUNDING_TASK} {GROUNDING_PICTURES} {GROUNDING_ANSWER}")
        }
    }
}

/// The grounding turn for one section.
pub fn grounding_user(objective: &str, plan: &str, section: &[&Candidate]) -> String {
    let mut text = format!("TASK: {objective}\nPLAN: {plan}\nELEMENTS:");
    for (letter, candidate) in LETTERS.iter().zip(section) {
        let _ = write!(text, "\n{}. {}", *letter as char, candidate.line);
    }
    text
}

pub const SELECTION_SYSTEM: &str = "\
Several actions could carry out the plan for the next browser action. Pick the one \
that does what the plan says on the right element. Answer with one line and nothing \
else:
CHOICE: <the letter of the action>";

/// The selection turn: the viable actions, each with its element's line.
pub fn selection_user(objective: &str, plan: &str, choices: &[String]) -> String {
    let mut text = format!("TASK: {objective}\nPLAN: {plan}\nACTIONS:");
    for (letter, choice) in LETTERS.iter().zip(choices) {
        let _ = write!(text, "\n{}. {choice}", *letter as char);
    }
    text
}
