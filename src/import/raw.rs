//! The MMInA / WebArena config file as written, read with typed serde so a missing or
//! mistyped field is reported with its JSON path. Fields we do not use (`sites`,
//! `storage_state`, `intent_template`, ...) are ignored.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub(crate) struct RawConfig {
    pub task_id: u64,
    pub start_url: String,
    pub intent: String,
    pub eval: RawEval,
    #[serde(default)]
    pub cnt_hop: Option<u64>,
    #[serde(default)]
    pub procedure: Option<Vec<String>>,
    #[serde(default)]
    pub city: Option<String>,
    #[serde(default)]
    pub flight: Option<String>,
    #[serde(default)]
    pub shop: Option<String>,
}

impl RawConfig {
    /// The token field a checkpoint rule names (`city`, `flight` or `shop`), `""` when
    /// absent or null: MMInA writes `""` for "unused".
    pub fn token_field(&self, name: &str) -> Option<&str> {
        match name {
            "city" => Some(self.city.as_deref().unwrap_or("")),
            "flight" => Some(self.flight.as_deref().unwrap_or("")),
            "shop" => Some(self.shop.as_deref().unwrap_or("")),
            _ => None,
        }
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawEval {
    /// Kept as strings and checked afterwards, so an unknown type is reported with
    /// its index and the list of known ones.
    pub eval_types: Vec<String>,
    #[serde(default)]
    pub reference_answers: Option<RawAnswers>,
    #[serde(default)]
    pub reference_url: Option<String>,
    #[serde(default)]
    pub url_note: Option<String>,
    #[serde(default)]
    pub program_html: Option<Vec<RawProgramHtml>>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RawAnswers {
    #[serde(default)]
    pub must_include: Option<Vec<String>>,
    #[serde(default)]
    pub exact_match: Option<String>,
    #[serde(default)]
    pub fuzzy_match: Option<RawFuzzy>,
}

/// WebArena writes `fuzzy_match` as a list, or as the string `"N/A"` for tasks whose
/// expected answer is that the task cannot be done.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum RawFuzzy {
    List(Vec<String>),
    Text(String),
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawProgramHtml {
    /// A URL, `last` (the final page), or `func:...` (a Python helper in WebArena).
    pub url: String,
    /// A JavaScript expression selecting part of the page; `""` = the whole page.
    #[serde(default)]
    pub locator: String,
    pub required_contents: RawAnswers,
}
