//! Action-language exports: the worker turns an agent's action text into the parsed
//! object its action table dispatches on, with the parser's precise error otherwise.

use super::to_js_error;
use hopbench::action::Action;
use wasm_bindgen::prelude::{wasm_bindgen, JsError, JsValue};

/// `click [12]` → `{kind: "click", id: 12}`; a parse error says what is wrong and where.
#[wasm_bindgen]
pub fn parse_action(text: &str) -> Result<JsValue, JsError> {
    let action = Action::parse(text).map_err(to_js_error)?;
    super::js::to_js(&action)
}

/// The canonical spelling of an action (`Click  [ 12 ]` → `click [12]`).
#[wasm_bindgen]
pub fn canonical_action(text: &str) -> Result<String, JsError> {
    Action::parse(text)
        .map(|a| a.to_string())
        .map_err(to_js_error)
}
