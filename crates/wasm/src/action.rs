//! Action-language exports: the worker turns an agent's action text into the parsed
//! object its action table dispatches on, with the parser's precise error otherwise.

use super::Thrown;
use hopbench::action::Action;
use wasm_bindgen::prelude::{wasm_bindgen, JsValue};

/// `click [12]` → `{kind: "click", id: 12}`; a parse error says what is wrong and where.
#[wasm_bindgen]
pub fn parse_action(text: &str) -> Result<JsValue, Thrown> {
    let action = Action::parse(text)?;
    super::js::to_js(&action)
}

/// The canonical spelling of an action (`Click  [ 12 ]` → `click [12]`).
#[wasm_bindgen]
pub fn canonical_action(text: &str) -> Result<String, Thrown> {
    Ok(Action::parse(text)?.to_string())
}
