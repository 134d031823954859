//! Reading element lines back out of the observation text
//! (`\t[12] link 'Tokyo' focused: True`): what an id stands for, an element's role and
//! name, and which id a `{role 'name'}` of a reference step stands for. The one reader
//! of these lines: the run views' words, reference steps, memory and diagnosis use it.

use crate::observation::py_repr;
use crate::task::ElementTarget;

/// The line of element `id` without its indent and `[id] ` prefix, e.g.
/// `link 'Tokyo'`; `None` when the observation shows no such element.
pub fn element_text(observation: &str, id: u32) -> Option<&str> {
    element_lines(observation)
        .find(|(line_id, _)| *line_id == id)
        .map(|(_, rest)| rest)
}

/// The id of the first line whose role is exactly `target.role` and whose name is
/// exactly `target.name`. Names are compared in their printed (`repr`) form, so the
/// quoting and escapes of the observation never cause a mismatch; properties after
/// the name are ignored.
pub fn find_element(observation: &str, target: &ElementTarget) -> Option<u32> {
    let head = format!("{} {}", target.role, py_repr(&target.name));
    element_lines(observation)
        .find(|(_, rest)| {
            rest.strip_prefix(&head)
                .is_some_and(|after| after.is_empty() || after.starts_with(' '))
        })
        .map(|(id, _)| id)
}

/// Every element line of an observation in page order, as (id, the line without its
/// indent and `[id] ` prefix).
pub fn element_lines(observation: &str) -> impl Iterator<Item = (u32, &str)> {
    observation.lines().filter_map(split_line)
}

/// `link 'Tokyo' focused: True` → (`link`, `'Tokyo'`): the role and the name as the
/// observation prints it (Python `repr`, quotes included). A line without a quoted
/// name gives the role and an empty name.
pub fn role_and_name(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    let (role, rest) = line.split_once(' ').unwrap_or((line, ""));
    if role.is_empty() {
        return None;
    }
    let Some(quote) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') else {
        return Some((role, ""));
    };
    // The repr escapes its own quote and backslashes, so the first unescaped quote of
    // the same kind closes the name.
    let mut escaped = false;
    for (i, c) in rest.char_indices().skip(1) {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == quote {
            return Some((role, &rest[..i + c.len_utf8()]));
        }
    }
    Some((role, ""))
}

/// The role and name of a line as one piece of text (`link 'Tokyo' url: http://x/` →
/// `link 'Tokyo'`): properties are left out, they are noise in a sentence or a step.
pub fn element_label(line: &str) -> &str {
    let line = line.trim();
    match role_and_name(line) {
        // The name follows the role and one space, so the label is a prefix of `line`.
        Some((role, name)) if !name.is_empty() => &line[..role.len() + 1 + name.len()],
        Some((role, _)) => role,
        None => line,
    }
}

/// `\t\t[12] link 'Tokyo'` → (12, `link 'Tokyo'`); lines that are not elements (the
/// tabs line, blank lines) give `None`.
fn split_line(line: &str) -> Option<(u32, &str)> {
    let rest = line.trim_start().strip_prefix('[')?;
    let (digits, rest) = rest.split_once("] ")?;
    let id = digits.parse().ok()?;
    Some((id, rest.trim_end()))
}

/// An observation the agent's line-reading tests share: names in both quotings, an
/// escaped quote, two links of the same name and an element without a name.
#[cfg(test)]
pub(super) const SAMPLE_OBSERVATION: &str = "Tab 0 (current): Wiki

[1] RootWebArea 'Wiki' focused: True
\t[12] link 'Tokyo' url: http://wiki.test/Tokyo
\t[13] searchbox 'Search'
\t[14] link \"Rock 'n' roll\"
\t[15] link 'Tokyo'
\t[16] generic
\t[17] button 'a \\'b\\' c'";

#[cfg(test)]
mod tests {
    use super::*;

    const OBSERVATION: &str = "Tab 0 (current): Tokyo - Wiki

[1] RootWebArea 'Tokyo - Wiki' focused: True
\t[12] link 'Tokyo'
\t[13] link 'Tokyo Tower'
\t\t[14] link \"Rock 'n' roll\" url: http://x.test/
\t[15] link 'Tokyo'
\t[16] button 'Tokyo'";

    fn target(role: &str, name: &str) -> ElementTarget {
        ElementTarget {
            role: role.into(),
            name: name.into(),
        }
    }

    #[test]
    fn ids_read_back_as_their_line() {
        assert_eq!(element_text(OBSERVATION, 12), Some("link 'Tokyo'"));
        assert_eq!(
            element_text(OBSERVATION, 14),
            Some("link \"Rock 'n' roll\" url: http://x.test/")
        );
        assert_eq!(element_text(OBSERVATION, 99), None);
    }

    #[test]
    fn labels_keep_role_and_quoted_name_whole() {
        assert_eq!(element_label("link 'a b' url: x"), "link 'a b'");
        assert_eq!(
            element_label("RootWebArea 'W' focused: True"),
            "RootWebArea 'W'"
        );
        assert_eq!(
            element_label(r"button 'a \'b\' c' x"),
            r"button 'a \'b\' c'"
        );
        assert_eq!(element_label("separator"), "separator");
        assert_eq!(element_label("generic orientation: x"), "generic");
        assert_eq!(element_label("link 'unclosed"), "link");
    }

    #[test]
    fn every_element_line_in_page_order() {
        let ids: Vec<u32> = element_lines(OBSERVATION).map(|(id, _)| id).collect();
        assert_eq!(ids, [1, 12, 13, 14, 15, 16]);
    }

    #[test]
    fn targets_match_exact_role_and_exact_name_first_line_wins() {
        assert_eq!(
            find_element(OBSERVATION, &target("link", "Tokyo")),
            Some(12)
        );
        assert_eq!(
            find_element(OBSERVATION, &target("button", "Tokyo")),
            Some(16)
        );
        assert_eq!(
            find_element(OBSERVATION, &target("link", "Rock 'n' roll")),
            Some(14)
        );
        // A prefix of a name is not the name, and case matters.
        assert_eq!(
            find_element(OBSERVATION, &target("link", "Tokyo Tow")),
            None
        );
        assert_eq!(find_element(OBSERVATION, &target("link", "tokyo")), None);
        assert_eq!(find_element(OBSERVATION, &target("heading", "Tokyo")), None);
    }
}
