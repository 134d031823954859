//! Reading element lines back out of the observation text
//! (`\t[12] link 'Tokyo' focused: True`): what an id stands for, and which id a
//! `{role 'name'}` of a reference step stands for.

use crate::observation::py_repr;
use crate::task::ElementTarget;

/// The line of element `id` without its indent and `[id] ` prefix, e.g.
/// `link 'Tokyo'`; `None` when the observation shows no such element.
pub fn element_text(observation: &str, id: u32) -> Option<&str> {
    observation
        .lines()
        .filter_map(split_line)
        .find(|(line_id, _)| *line_id == id)
        .map(|(_, rest)| rest)
}

/// The id of the first line whose role is exactly `target.role` and whose name is
/// exactly `target.name`. Names are compared in their printed (`repr`) form, so the
/// quoting and escapes of the observation never cause a mismatch; properties after
/// the name are ignored.
pub fn find_element(observation: &str, target: &ElementTarget) -> Option<u32> {
    let head = format!("{} {}", target.role, py_repr(&target.name));
    observation
        .lines()
        .filter_map(split_line)
        .find(|(_, rest)| {
            rest.strip_prefix(&head)
                .is_some_and(|after| after.is_empty() || after.starts_with(' '))
        })
        .map(|(id, _)| id)
}

/// `\t\t[12] link 'Tokyo'` → (12, `link 'Tokyo'`); lines that are not elements (the
/// tabs line, blank lines) give `None`.
fn split_line(line: &str) -> Option<(u32, &str)> {
    let rest = line.trim_start().strip_prefix('[')?;
    let (digits, rest) = rest.split_once("] ")?;
    let id = digits.parse().ok()?;
    Some((id, rest.trim_end()))
}

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
