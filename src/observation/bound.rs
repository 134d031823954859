//! The bound of an observation of a page too big to read whole (docs/observation.md,
//! "The bound"). The glue reads such a page only near the viewport and says so in the
//! input (`TargetInput::cut`); the core then tells the model, in a line above the tree,
//! and caps what it writes, so the text and the time the core takes stay bounded
//! whatever the glue hands it. Pages read whole have no caps: their text is as before.

use super::input::ObservationInput;
use crate::tokens::{estimate_tokens, prefix_within};
use std::fmt::Write;

/// The most text a cut observation's tree may have, in estimated tokens (the estimate
/// counts high: cl100k counts about three quarters of it). A viewport of ordinary
/// density is one to three thousand.
pub const MAX_CUT_TOKENS: u64 = 8_000;

/// The most accessibility nodes the core walks in a cut observation: a backstop above
/// what the glue reads, so a glue that read too much still costs the core a bounded
/// time.
pub const MAX_CUT_NODES: usize = 20_000;

/// What a cut observation has used of its caps.
#[derive(Debug)]
pub struct Budget {
    nodes_left: usize,
    tokens_left: u64,
    /// Why the walk stopped before the end of what was read, once it has.
    pub stopped: Option<Stop>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Tokens,
    Nodes,
}

impl Budget {
    /// The caps of a cut observation, or none when every target was read whole.
    pub fn of(input: &ObservationInput) -> Option<Budget> {
        input
            .targets
            .iter()
            .any(|t| t.cut.is_some())
            .then_some(Budget {
                nodes_left: MAX_CUT_NODES,
                tokens_left: MAX_CUT_TOKENS,
                stopped: None,
            })
    }

    /// One more node walked; false once the walk has to stop.
    pub fn take_node(&mut self) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        if self.nodes_left == 0 {
            self.stopped = Some(Stop::Nodes);
            return false;
        }
        self.nodes_left -= 1;
        true
    }

    /// One more line written (with the newline before it, unless it is the first):
    /// how many of its bytes fit. All of them, or once the cap is reached none; only a
    /// first line longer than the whole cap keeps the part that fits, so that the text
    /// is never empty. The caller removes what does not fit.
    pub fn take_line(&mut self, line: &str, first: bool) -> usize {
        let cost = estimate_tokens(line) + u64::from(!first);
        if cost <= self.tokens_left && self.stopped.is_none() {
            self.tokens_left -= cost;
            return line.len();
        }
        let kept = if first && self.stopped.is_none() {
            prefix_within(line, self.tokens_left).len()
        } else {
            0
        };
        self.tokens_left = 0;
        self.stopped.get_or_insert(Stop::Tokens);
        kept
    }
}

/// The lines above the tree that say which targets were read only in part; `None`
/// when every target was read whole.
pub fn header(input: &ObservationInput) -> Option<String> {
    let mut lines = String::new();
    for target in &input.targets {
        let Some(cut) = &target.cut else { continue };
        if !lines.is_empty() {
            lines.push('\n');
        }
        let what = if target.target_id.is_none() {
            "the page has"
        } else {
            "a frame of the page has"
        };
        let _ = write!(
            lines,
            "[observation cut: {what} about {} elements; only the {} nearest the viewport were read]",
            about(cut.elements),
            thousands(cut.read)
        );
    }
    (!lines.is_empty()).then_some(lines)
}

/// The line at the end of a tree whose walk stopped at a cap.
pub fn stop_line(stop: Stop) -> String {
    match stop {
        Stop::Tokens => format!(
            "[observation cut here: the text reached its cap of about {} tokens]",
            thousands(MAX_CUT_TOKENS)
        ),
        Stop::Nodes => format!(
            "[observation cut here: the text reached its cap of {} accessibility nodes]",
            thousands(MAX_CUT_NODES as u64)
        ),
    }
}

/// The count of a whole page as the size probe saw it: two significant figures,
/// since the page may change while it is read (199,998 → "200,000").
fn about(n: u64) -> String {
    let digits = n.checked_ilog10().unwrap_or(0) + 1;
    let unit = 10u64.pow(digits.saturating_sub(2));
    thousands((n + unit / 2) / unit * unit)
}

/// `n` with commas between thousands, as the model reads numbers in English.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_sizes_are_told_to_two_figures_with_commas() {
        assert_eq!(about(199_998), "200,000");
        assert_eq!(about(74_559), "75,000");
        assert_eq!(about(1_234_567), "1,200,000");
        assert_eq!(about(87), "87");
        assert_eq!(about(0), "0");
        assert_eq!(thousands(451), "451");
        assert_eq!(thousands(20_000), "20,000");
    }

    #[test]
    fn a_line_over_the_token_cap_is_dropped_and_the_budget_stops() {
        let mut budget = Budget {
            nodes_left: 10,
            tokens_left: 10,
            stopped: None,
        };
        // `[1] link 'Tokyo'`: 8 tokens, the first line (no newline before it).
        assert_eq!(budget.take_line("[1] link 'Tokyo'", true), 16);
        assert_eq!(budget.stopped, None);
        // Another 9 (8 and its newline) do not fit in the 2 left.
        assert_eq!(budget.take_line("[2] link 'Tokyo'", false), 0);
        assert_eq!(budget.stopped, Some(Stop::Tokens));
        assert_eq!(budget.take_line("x", false), 0);
        assert!(!budget.take_node());
    }

    #[test]
    fn a_first_line_longer_than_the_cap_keeps_what_fits() {
        let mut budget = Budget {
            nodes_left: 10,
            tokens_left: 3,
            stopped: None,
        };
        let line = "[1] StaticText 'a very long text'";
        let kept = budget.take_line(line, true);
        assert!(kept > 0 && kept < line.len(), "{kept}");
        assert!(estimate_tokens(&line[..kept]) <= 3);
        assert_eq!(budget.stopped, Some(Stop::Tokens));
    }

    #[test]
    fn the_node_cap_stops_the_walk() {
        let mut budget = Budget {
            nodes_left: 2,
            tokens_left: 100,
            stopped: None,
        };
        assert!(budget.take_node() && budget.take_node());
        assert!(!budget.take_node());
        assert_eq!(budget.stopped, Some(Stop::Nodes));
        assert_eq!(
            stop_line(Stop::Nodes),
            "[observation cut here: the text reached its cap of 20,000 accessibility nodes]"
        );
    }
}
