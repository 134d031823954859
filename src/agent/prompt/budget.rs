//! Cutting the observation to a token budget before it goes into the prompt, as
//! MMInA's `max_obs_length` does for its direct prompt (off unless the person sets it).
//!
//! The core has no tokenizer: a model's own vocabulary would weigh more than the rest
//! of the wasm, and each server has a different one. Tokens are estimated instead, on
//! the high side, so that a cut observation fits where the estimate says it does: a
//! run of ASCII letters counts one token per 4 letters (rounded up; BPE vocabularies
//! hold most English words whole), every digit one (several vocabularies split numbers
//! into digits), a space nothing (BPE joins it to the next word), and every other
//! character one: tabs and newlines (the observation's indent), brackets, quotes,
//! punctuation, a CJK character. Measured against real tokenizers on an observation of
//! 500 links and on the system prompt: SmolLM2's (49k vocabulary) counted 22,324 and
//! 1,373 tokens where this estimates 22,330 and 1,691; cl100k 16,535 and 1,238.
//! `tests/realmodel/` checks a cut observation against llama.cpp's tokenizer.

pub use crate::tokens::estimate_tokens;
use crate::tokens::prefix_within;
use serde::{Deserialize, Serialize};

/// What cutting did to one observation; kept in the step's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ObservationCut {
    /// The budget (`max_obs_tokens`).
    pub max_tokens: u32,
    /// The estimate of the whole observation.
    pub estimated_tokens: u64,
    /// The estimate of what the prompt kept.
    pub kept_tokens: u64,
}

/// The observation as the prompt shows it: whole when it fits the budget, else its
/// first lines (MMInA keeps the beginning too), whole lines only, the last line cut
/// within itself only when not even the first one fits. `None` as the cut when
/// nothing was cut.
pub fn cut_observation(text: &str, max_tokens: u32) -> (String, Option<ObservationCut>) {
    let whole = estimate_tokens(text);
    let budget = u64::from(max_tokens);
    if whole <= budget {
        return (text.to_string(), None);
    }
    let mut kept = String::new();
    let mut used = 0u64;
    for line in text.split_inclusive('\n') {
        let cost = estimate_tokens(line);
        if used + cost > budget {
            if kept.is_empty() {
                kept = prefix_within(line, budget).to_string();
            }
            break;
        }
        kept.push_str(line);
        used += cost;
    }
    let kept = kept.trim_end_matches('\n').to_string();
    let cut = ObservationCut {
        max_tokens,
        estimated_tokens: whole,
        // Without the last line's newline, which the prompt does not show.
        kept_tokens: estimate_tokens(&kept),
    };
    (kept, Some(cut))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_observation_within_the_budget_is_kept_whole() {
        let text = "[1] RootWebArea 'Home'\n\t[2] link 'Tokyo'";
        let (kept, cut) = cut_observation(text, 1_000);
        assert_eq!(kept, text);
        assert_eq!(cut, None);
    }

    #[test]
    fn a_long_observation_keeps_its_first_whole_lines_within_the_budget() {
        let lines: Vec<String> = (1..=200)
            .map(|i| format!("\t[{i}] link 'Article number {i}'"))
            .collect();
        let text = lines.join("\n");
        let (kept, cut) = cut_observation(&text, 100);
        let cut = cut.expect("the observation is over the budget");
        assert!(cut.kept_tokens <= 100, "{cut:?}");
        assert_eq!(cut.kept_tokens, estimate_tokens(&kept));
        assert!(cut.estimated_tokens > 100);
        assert!(text.starts_with(&kept));
        assert!(kept.ends_with('\''), "whole lines only: {kept:?}");
        // One more line would not have fitted.
        let next = lines[kept.lines().count()].as_str();
        assert!(cut.kept_tokens + estimate_tokens(next) + 1 > 100);
    }

    #[test]
    fn a_first_line_longer_than_the_budget_is_cut_within_itself() {
        let text = format!("[1] StaticText '{}'\n[2] link 'x'", "word ".repeat(100));
        let (kept, cut) = cut_observation(&text, 20);
        let cut = cut.expect("cut");
        assert!(!kept.is_empty());
        assert!(cut.kept_tokens <= 20);
        assert!(text.starts_with(&kept));
        // The longest such prefix: one more character would be over.
        let longer = &text[..kept.len() + 1];
        assert!(estimate_tokens(longer) > 20, "{kept:?}");
    }
}
