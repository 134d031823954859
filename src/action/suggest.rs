//! "Did you mean" suggestions for misspelt action names and keys.

/// Edit distance (insert, delete, substitute; one unit each) over chars, ignoring ASCII case.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    // One rolling row is enough: each cell needs only the row above and the cell to its left.
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            let cost = usize::from(ca != cb);
            row[j + 1] = (diagonal + cost).min(above + 1).min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The candidate closest to `word`, if it is close enough to be a plausible typo.
///
/// The cut-off (at most 2 edits, or a third of the word for long words, and always
/// fewer edits than the word has chars) keeps short unrelated words from being
/// "corrected" into something the model never meant.
pub(crate) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let len = word.chars().count();
    let limit = (len / 3).max(2).min(len.saturating_sub(1));
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits() {
        assert_eq!(edit_distance("clik", "click"), 1);
        assert_eq!(edit_distance("Cntrl", "control"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn suggests_close_names_only() {
        let names = ["click", "hover", "go_back", "goto"];
        assert_eq!(closest("clik", names), Some("click"));
        assert_eq!(closest("goback", names), Some("go_back"));
        assert_eq!(closest("navigate", names), None);
        // A one-letter word is never "corrected".
        assert_eq!(closest("x", names), None);
    }
}
