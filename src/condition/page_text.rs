//! Page content conditions: text that must be present on a page the session showed.

use serde::{Deserialize, Serialize};

/// Holds when every string in `contains` appears in the page's text.
///
/// Whitespace runs are collapsed on both sides, because rendered text breaks lines
/// where the source did not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PageTextCondition {
    /// Strings that must all appear.
    #[cfg_attr(feature = "schema", schemars(length(min = 1), inner(pattern(r"\S"))))]
    pub contains: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub case_sensitive: bool,
}

impl PageTextCondition {
    pub fn matches(&self, page_text: &str) -> bool {
        let fold = |s: &str| {
            let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
            if self.case_sensitive {
                collapsed
            } else {
                collapsed.to_lowercase()
            }
        };
        let page = fold(page_text);
        !self.contains.is_empty()
            && self.contains.iter().all(|needle| {
                let n = fold(needle);
                !n.is_empty() && page.contains(&n)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_strings_required_whitespace_collapsed() {
        let c = PageTextCondition {
            contains: vec!["Tokyo Tower".into(), "333 m".into()],
            case_sensitive: false,
        };
        assert!(c.matches("The tokyo\n   tower is 333 m tall"));
        assert!(!c.matches("The Tokyo Tower is tall"));
        assert!(!PageTextCondition {
            contains: vec![],
            case_sensitive: false
        }
        .matches("x"));
        assert!(!PageTextCondition {
            contains: vec!["  ".into()],
            case_sensitive: false
        }
        .matches("x"));
    }
}
