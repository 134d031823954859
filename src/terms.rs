//! The terms JavaScript shares with the core, written once here: the names of the
//! observation modes and formats, the agents and their settings, the model call's error
//! kinds, why a run ends, and what the core says of each (which modes carry pictures,
//! which error kinds may pass by themselves). `hopbench terms` writes them as a
//! JavaScript module, `extension/core-terms.js`, which the extension's settings and the
//! runner import instead of spelling the names again; the CLI's `core_terms` test fails
//! while the checked-in file differs from what these types give (`./build.sh terms`
//! regenerates it).
//!
//! Names are the serde spellings, the ones every JSON value crossing to JavaScript uses.

use serde::Serialize;

use crate::action::EarlyStopRule;
use crate::agent::{
    AgentKind, FinishCause, GroundingMode, ObservationMode, PromptStyle, SelectMode,
};
use crate::boundary::CoreErrorKind;
use crate::memory::{MemoryPolicy, MAX_MEMORY_K};
use crate::observation::ObservationFormat;
use crate::provider::{ErrorKind, PromptCache};

/// The JSON spelling of a unit variant ("text+images", "rate_limited").
pub fn name_of<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        // Unit variants always serialise as strings; an empty name fails the tests.
        _ => String::new(),
    }
}

fn names<'a, T: Serialize + 'a>(values: impl IntoIterator<Item = &'a T>) -> Vec<String> {
    values.into_iter().map(name_of).collect()
}

/// One exported constant of the module.
struct Term {
    name: &'static str,
    /// What it is and where it comes from, for the JSDoc comment.
    doc: &'static str,
    value: Value,
}

enum Value {
    Names(Vec<String>),
    /// One name: a default among the names of another term.
    Name(String),
    Number(u32),
}

/// Every term, in the module's order.
fn terms() -> Vec<Term> {
    let pictures: Vec<&ObservationMode> = ObservationMode::ALL
        .iter()
        .filter(|m| m.carries_pictures())
        .collect();
    let needs_pictures: Vec<&GroundingMode> = GroundingMode::ALL
        .iter()
        .filter(|g| g.needs_pictures())
        .collect();
    let transient: Vec<&ErrorKind> = ErrorKind::ALL.iter().filter(|k| k.is_transient()).collect();
    let ends_run: Vec<&ErrorKind> = ErrorKind::ALL.iter().filter(|k| k.ends_run()).collect();
    vec![
        Term {
            name: "OBSERVATION_MODES",
            doc: "What the model is given besides the page's text (agent::ObservationMode).",
            value: Value::Names(names(ObservationMode::ALL)),
        },
        Term {
            name: "OBSERVATION_MODES_WITH_PICTURES",
            doc: "The observation modes that give the model pictures (ObservationMode::carries_pictures).",
            value: Value::Names(names(pictures)),
        },
        Term {
            name: "OBSERVATION_FORMATS",
            doc: "How the page's text is written (observation::ObservationFormat).",
            value: Value::Names(names(ObservationFormat::ALL)),
        },
        Term {
            name: "AGENT_KINDS",
            doc: "Which agent runs the steps (agent::AgentKind).",
            value: Value::Names(names(AgentKind::ALL)),
        },
        Term {
            name: "PROMPT_STYLES",
            doc: "How the model is asked to answer (agent::PromptStyle).",
            value: Value::Names(names(PromptStyle::ALL)),
        },
        Term {
            name: "GROUNDING_MODES",
            doc: "What the modular agent's grounding sees besides the choices (agent::GroundingMode).",
            value: Value::Names(names(GroundingMode::ALL)),
        },
        Term {
            name: "GROUNDING_MODES_NEEDING_PICTURES",
            doc: "The grounding modes that need an observation mode of OBSERVATION_MODES_WITH_PICTURES \
                  (GroundingMode::needs_pictures; the core refuses the settings otherwise, AgentConfig::check).",
            value: Value::Names(names(needs_pictures)),
        },
        Term {
            name: "SELECT_MODES",
            doc: "How the modular agent picks among grounded actions (agent::SelectMode).",
            value: Value::Names(names(SelectMode::ALL)),
        },
        Term {
            name: "MEMORY_POLICIES",
            doc: "Which past runs procedural memory shows (memory::MemoryPolicy).",
            value: Value::Names(names(MemoryPolicy::ALL)),
        },
        Term {
            name: "MAX_MEMORY_K",
            doc: "The most past runs a prompt shows (memory::MAX_MEMORY_K).",
            value: Value::Number(MAX_MEMORY_K),
        },
        Term {
            name: "PROMPT_CACHE_SETTINGS",
            doc: "Whether a model endpoint is asked to cache the prompt's prefix between calls: the `prompt_cache` \
                  of its settings (provider::PromptCache).",
            value: Value::Names(names(PromptCache::ALL)),
        },
        Term {
            name: "DEFAULT_PROMPT_CACHE",
            doc: "The prompt cache setting of an endpoint whose settings name none (PromptCache::default).",
            value: Value::Name(name_of(&PromptCache::default())),
        },
        Term {
            name: "CALL_ERROR_KINDS",
            doc: "Why a model call failed: `error.kind` of a call outcome and of a step's `model_error` \
                  (provider::ErrorKind).",
            value: Value::Names(names(ErrorKind::ALL)),
        },
        Term {
            name: "TRANSIENT_CALL_ERROR_KINDS",
            doc: "The call error kinds that may pass by themselves, the only ones the client tries again \
                  (ErrorKind::is_transient).",
            value: Value::Names(names(transient)),
        },
        Term {
            name: "RUN_ENDING_CALL_ERROR_KINDS",
            doc: "The call error kinds every later call would meet too, so an agent run ends at the first \
                  (ErrorKind::ends_run).",
            value: Value::Names(names(ends_run)),
        },
        Term {
            name: "FINISH_CAUSES",
            doc: "Why an agent run ended: `cause` of its `finish` and of its run summary (agent::FinishCause).",
            value: Value::Names(names(FinishCause::ALL)),
        },
        Term {
            name: "EARLY_STOP_RULES",
            doc: "Which early-stop rule ended a run: `rule` of an `early_stop` finish and of its run summary \
                  (action::EarlyStopRule).",
            value: Value::Names(names(EarlyStopRule::ALL)),
        },
        Term {
            name: "CORE_ERROR_KINDS",
            doc: "What an error the core's exports throw is about: its `kind` property (boundary::CoreErrorKind).",
            value: Value::Names(names(CoreErrorKind::ALL)),
        },
    ]
}

/// Lists no longer than this on one line are kept on one line.
const WIDTH: usize = 120;
/// The width of a doc comment's text.
const DOC_WIDTH: usize = 86;

/// The module as the checked-in `extension/core-terms.js` holds it.
pub fn core_terms_module() -> String {
    let mut out = String::from(
        "// Generated by `hopbench terms` from the Rust core's types (src/terms.rs): the names\n\
         // JavaScript shares with the core, and what the core says of them. Do not edit: change\n\
         // the Rust types and run `./build.sh terms` (the CLI's `core_terms` test fails while\n\
         // this file differs from what the types give).\n",
    );
    for term in terms() {
        out.push('\n');
        let (js_type, value) = match &term.value {
            Value::Names(names) => ("readonly string[]", frozen_list(term.name, names)),
            Value::Name(name) => ("string", js_string(name)),
            Value::Number(n) => ("number", n.to_string()),
        };
        out.push_str("/**\n");
        for line in wrap(term.doc, DOC_WIDTH) {
            out.push_str(&format!(" * {line}\n"));
        }
        out.push_str(&format!(
            " * @type {{{js_type}}}\n */\nexport const {} = {value};\n",
            term.name
        ));
    }
    out
}

/// The words of a doc comment per line, each line at most `width` characters (a word
/// longer than that gets a line of its own).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `Object.freeze(['a', 'b'])`, one name a line when one line would be too long.
fn frozen_list(const_name: &str, names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| js_string(n)).collect();
    let one_line = format!("Object.freeze([{}])", quoted.join(", "));
    // The whole line: `export const NAME = Object.freeze([...]);`.
    let line = format!("export const {const_name} = {one_line};");
    if line.len() <= WIDTH {
        return one_line;
    }
    let mut text = String::from("Object.freeze([\n");
    for name in quoted {
        text.push_str(&format!("  {name},\n"));
    }
    text.push_str("])");
    text
}

/// A single-quoted JavaScript string, as the project's JavaScript writes them.
fn js_string(text: &str) -> String {
    let mut quoted = String::from("'");
    for c in text.chars() {
        match c {
            '\'' | '\\' => {
                quoted.push('\\');
                quoted.push(c);
            }
            '\n' => quoted.push_str("\\n"),
            _ => quoted.push(c),
        }
    }
    quoted.push('\'');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_term_has_names_and_no_name_is_empty() {
        for term in terms() {
            if let Value::Names(names) = &term.value {
                assert!(!names.is_empty(), "{}", term.name);
                assert!(
                    names.iter().all(|n| !n.is_empty()),
                    "{}: {names:?}",
                    term.name
                );
            }
            if let Value::Name(name) = &term.value {
                assert!(!name.is_empty(), "{}", term.name);
            }
        }
    }

    #[test]
    fn the_names_are_the_ones_serde_reads_back() {
        for mode in ObservationMode::ALL {
            let back: ObservationMode =
                crate::json_read::from_value(serde_json::Value::String(name_of(mode))).unwrap();
            assert_eq!(back, *mode);
            assert_eq!(name_of(mode), mode.name());
        }
        for kind in ErrorKind::ALL {
            assert_eq!(ErrorKind::from_name(&name_of(kind)), Some(*kind));
        }
    }

    #[test]
    fn the_facts_are_the_cores() {
        let text = core_terms_module();
        assert!(text.contains(
            "export const OBSERVATION_MODES_WITH_PICTURES = \
             Object.freeze(['text+images', 'text+screenshot', 'som']);"
        ));
        assert!(text.contains(
            "export const GROUNDING_MODES_NEEDING_PICTURES = Object.freeze(['visual']);"
        ));
        assert!(text.contains(
            "export const TRANSIENT_CALL_ERROR_KINDS = \
             Object.freeze(['rate_limited', 'server', 'timeout', 'network']);"
        ));
        assert!(text.contains("export const MAX_MEMORY_K = 10;"));
        assert!(text.contains("export const PROMPT_CACHE_SETTINGS = Object.freeze(['on', 'off']);"));
        assert!(text.contains("export const DEFAULT_PROMPT_CACHE = 'on';"));
    }

    #[test]
    fn long_lists_go_one_name_a_line() {
        let names: Vec<String> = (0..30).map(|i| format!("name_{i}")).collect();
        let text = frozen_list("LONG", &names);
        assert!(text.starts_with("Object.freeze([\n  'name_0',\n"), "{text}");
        assert!(text.ends_with("  'name_29',\n])"), "{text}");
        assert_eq!(js_string("it's"), "'it\\'s'");
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
    }
}
