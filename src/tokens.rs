//! The token estimate the core uses wherever text must fit a budget: the prompt's cut
//! of an observation (`agent/prompt/budget.rs`, `max_obs_tokens`) and the cap on the
//! text of an observation of a page too big to read whole (`observation/bound.rs`).
//! How it counts, and how it was checked against real tokenizers: `budget.rs`.

/// An estimate of the tokens of `text`, meant to be at least the real count for the
/// vocabularies of today's chat models.
pub fn estimate_tokens(text: &str) -> u64 {
    let mut tokens = 0u64;
    let mut letters = 0u64;
    for c in text.chars() {
        if c.is_ascii_alphabetic() {
            letters += 1;
            continue;
        }
        tokens += letters.div_ceil(4);
        letters = 0;
        if c != ' ' {
            tokens += 1;
        }
    }
    tokens + letters.div_ceil(4)
}

/// The longest prefix of `line` (on a character boundary) whose estimate is within
/// `budget`, found in one pass: the estimate of each prefix follows from the last.
pub fn prefix_within(line: &str, budget: u64) -> &str {
    let (mut tokens, mut letters, mut end) = (0u64, 0u64, 0);
    for (at, c) in line.char_indices() {
        let (next_tokens, next_letters) = if c.is_ascii_alphabetic() {
            (tokens, letters + 1)
        } else {
            (tokens + letters.div_ceil(4) + u64::from(c != ' '), 0)
        };
        if next_tokens + next_letters.div_ceil(4) > budget {
            break;
        }
        (tokens, letters, end) = (next_tokens, next_letters, at + c.len_utf8());
    }
    &line[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_count_by_four_letters_digits_and_symbols_one_each() {
        assert_eq!(estimate_tokens(""), 0);
        // Spaces are free; the indent's tabs and newlines are not.
        assert_eq!(estimate_tokens("   "), 0);
        assert_eq!(estimate_tokens("\n\t\t"), 3);
        assert_eq!(estimate_tokens("Tokyo"), 2);
        // `[`, `1`, `2`, `]`, `link`, `'`, `Tokyo` (2), `'`.
        assert_eq!(estimate_tokens("[12] link 'Tokyo'"), 9);
        assert_eq!(estimate_tokens("東京タワー"), 5);
    }
}
