//! Reading the modular agent's replies: the plan line and the element it names, the
//! grounding triplet, the selection letter.

use super::prompts::LETTERS;
use super::rank::Candidate;
use crate::action::Action;
use crate::diagnosis::Element;

/// The text after the last `PLAN:` (any case, markdown stars ignored), else the
/// reply's last non-empty line.
pub fn plan_line(reply: &str) -> String {
    let lines: Vec<&str> = reply
        .lines()
        .map(|l| l.trim().trim_matches('*').trim())
        .filter(|l| !l.is_empty())
        .collect();
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let head = l.get(..5)?;
            head.eq_ignore_ascii_case("plan:")
                .then(|| l[5..].trim_start_matches('*').trim().to_string())
        })
        .or_else(|| lines.last().map(|l| l.to_string()))
        .unwrap_or_default()
}

/// The element the plan names: the first candidate whose `role 'name'` appears in it,
/// else whose quoted name does, else the first element of the whole page whose
/// `role 'name'` does. Names must be quoted: a bare word is too often a coincidence.
pub fn plan_target(plan: &str, candidates: &[Candidate], page: &[Element]) -> Option<Element> {
    let full = |e: &Element| !e.name.is_empty() && plan.contains(&e.label());
    let quoted = |e: &Element| e.name.len() > 2 && plan.contains(&e.name);
    candidates
        .iter()
        .map(|c| &c.element)
        .find(|e| full(e))
        .or_else(|| candidates.iter().map(|c| &c.element).find(|e| quoted(e)))
        .or_else(|| page.iter().find(|e| full(e)))
        .cloned()
}

/// A section's answer: `Ok(None)` for "None", the action on the chosen candidate, or
/// why the answer cannot be read.
pub fn grounding_answer(reply: &str, section: &[&Candidate]) -> Result<Option<Action>, String> {
    let field = |name: &str| {
        reply.lines().find_map(|l| {
            let l = l.trim().trim_matches('*').trim();
            let head = l.get(..name.len())?;
            head.eq_ignore_ascii_case(name)
                .then(|| l[name.len()..].trim_start_matches('*').trim().to_string())
        })
    };
    let element = field("ELEMENT:").ok_or("no ELEMENT line")?;
    if element.eq_ignore_ascii_case("none") || element.is_empty() {
        return Ok(None);
    }
    let letter = element
        .trim_matches(|c: char| !c.is_ascii_alphabetic())
        .to_ascii_uppercase();
    let index = match letter.as_bytes() {
        [one] => LETTERS.iter().position(|l| l == one),
        _ => None,
    }
    .ok_or_else(|| format!("ELEMENT {element:?} is not a letter of the list"))?;
    let candidate = section
        .get(index)
        .ok_or_else(|| format!("ELEMENT {letter} is not in the list"))?;
    let op = field("ACTION:").unwrap_or_else(|| "CLICK".into());
    let value = field("VALUE:")
        .filter(|v| !v.eq_ignore_ascii_case("none"))
        .unwrap_or_default();
    let id = candidate.id;
    match op.to_ascii_uppercase().as_str() {
        "CLICK" => Ok(Some(Action::Click { id })),
        "HOVER" => Ok(Some(Action::Hover { id })),
        "TYPE" | "SELECT" if value.is_empty() => Err(format!("{op} without a VALUE")),
        // Typing presses Enter, as the action language's default does (a search box
        // submits); choosing an option does not.
        "TYPE" => Ok(Some(Action::Type {
            id,
            text: value,
            press_enter: true,
        })),
        "SELECT" => Ok(Some(Action::Type {
            id,
            text: value,
            press_enter: false,
        })),
        other => Err(format!(
            "ACTION {other:?} is not CLICK, TYPE, SELECT or HOVER"
        )),
    }
}

/// The chosen letter's index among `count` choices.
pub fn selection_answer(reply: &str, count: usize) -> Option<usize> {
    let text = reply.trim();
    let after = text
        .to_ascii_uppercase()
        .rfind("CHOICE:")
        .map_or(text, |at| &text[at + 7..]);
    let letter = after
        .split(|c: char| !c.is_ascii_alphabetic())
        .find(|w| !w.is_empty())?
        .to_ascii_uppercase();
    match letter.as_bytes() {
        [one] => LETTERS.iter().position(|l| l == one).filter(|i| *i < count),
        _ => None,
    }
}
