//! Human-readable descriptions of conditions, for progress displays and reports.

use super::{AnswerCondition, Condition, MatchOp, PageTextCondition, UrlCondition, UrlPart};

impl Condition {
    pub fn describe(&self) -> String {
        match self {
            Condition::Url(c) => c.describe(),
            Condition::Answer(c) => c.describe(),
            Condition::PageText(c) => c.describe(),
            Condition::All { of } => join(of, " and "),
            Condition::Any { of } => join(of, " or "),
            Condition::Not(c) => format!("not ({})", c.condition.describe()),
        }
    }
}

fn join(of: &[Condition], sep: &str) -> String {
    let parts: Vec<String> = of.iter().map(|c| c.describe()).collect();
    format!("({})", parts.join(sep))
}

impl UrlCondition {
    pub fn describe(&self) -> String {
        let target = match self.part {
            UrlPart::Url => "URL".to_string(),
            UrlPart::Host => "host".to_string(),
            UrlPart::Path => "path".to_string(),
            UrlPart::Query => "query".to_string(),
            UrlPart::Fragment => "fragment".to_string(),
            UrlPart::Param => format!("parameter {:?}", self.param.as_deref().unwrap_or("?")),
        };
        let mut out = match (self.op, self.value.as_deref()) {
            (Some(op), Some(v)) => {
                let verb = match op {
                    MatchOp::Contains => "contains",
                    MatchOp::Equals => "equals",
                    MatchOp::Prefix => "starts with",
                    MatchOp::Regex => "matches",
                };
                format!("a page whose {target} {verb} {v:?}")
            }
            _ => "a page".to_string(),
        };
        if !self.tokens.is_empty() {
            let quoted: Vec<String> = self.tokens.iter().map(|t| format!("{t:?}")).collect();
            out.push_str(&format!(" with {} in the URL", quoted.join(", ")));
        }
        format!("reach {out}")
    }
}

impl AnswerCondition {
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.must_include.is_empty() {
            parts.push(format!("includes {:?}", self.must_include));
        }
        if let Some(e) = &self.exact_match {
            parts.push(format!("is exactly {e:?}"));
        }
        if !self.fuzzy_match.is_empty() {
            parts.push(format!("implies {:?}", self.fuzzy_match));
        }
        format!("answer that {}", parts.join(" and "))
    }
}

impl PageTextCondition {
    pub fn describe(&self) -> String {
        format!("see a page showing {:?}", self.contains)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_nested_conditions() {
        let c = Condition::All {
            of: vec![
                Condition::Url(UrlCondition::contains("event", vec!["tokyo".into()])),
                Condition::PageText(PageTextCondition {
                    contains: vec!["Tokyo".into()],
                    case_sensitive: false,
                }),
            ],
        };
        assert_eq!(
            c.describe(),
            "(reach a page whose URL contains \"event\" with \"tokyo\" in the URL and see a page showing [\"Tokyo\"])"
        );
    }
}
