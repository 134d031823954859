//! URL conditions: a pattern on one part of the URL plus tokens that must all appear.

use super::url_parts::{percent_decode, UrlParts};
use serde::{Deserialize, Serialize};

/// Which part of the URL a pattern applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum UrlPart {
    /// The whole URL as the browser reports it.
    #[default]
    Url,
    /// The host name, without port or user.
    Host,
    /// The path, from its leading `/`.
    Path,
    /// The whole query string, without `?`.
    Query,
    /// One query parameter, named by `param`; holds if any of its values matches.
    Param,
    /// The fragment, without `#` (where Kiwix's viewer names the article).
    Fragment,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(UrlPart, "UrlPart", {
    Url = "url",
    Host = "host",
    Path = "path",
    Query = "query",
    Param = "param",
    Fragment = "fragment",
});

/// How a pattern is compared with the chosen part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MatchOp {
    Contains,
    Equals,
    Prefix,
    Regex,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(MatchOp, "MatchOp", {
    Contains = "contains",
    Equals = "equals",
    Prefix = "prefix",
    Regex = "regex",
});

/// Holds when the pattern (if any) matches and every token appears in the URL.
///
/// Matching is case-insensitive unless `case_sensitive` is set. Both the raw and the
/// percent-decoded forms are tried, because sites differ in how they encode the
/// same choice (`San+Francisco`, `San%20Francisco`, `san-francisco`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
// A pattern (`op` with `value`) or tokens, or both.
#[cfg_attr(feature = "schema", schemars(extend(
    "dependentRequired" = {"op": ["value"], "value": ["op"]},
    "anyOf" = [{"required": ["op"]}, {"required": ["tokens"]}]
)))]
pub struct UrlCondition {
    /// The part of the URL that `op` and `value` apply to.
    #[serde(default)]
    pub part: UrlPart,
    /// Query parameter name, required when `part` is `param` (and only then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub param: Option<String>,
    /// How `value` is compared with the part; needs `value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op: Option<MatchOp>,
    /// The pattern; needs `op`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Words that must all appear somewhere in the whole URL. An empty token never
    /// matches (validation rejects it; matching refuses it as a second line of defence).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(inner(pattern(r"\S"))))]
    pub tokens: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub case_sensitive: bool,
}

impl UrlCondition {
    /// A condition that the whole URL contains `value`, plus `tokens`.
    pub fn contains(value: &str, tokens: Vec<String>) -> Self {
        UrlCondition {
            part: UrlPart::Url,
            param: None,
            op: Some(MatchOp::Contains),
            value: Some(value.to_string()),
            tokens,
            case_sensitive: false,
        }
    }

    pub fn matches(&self, url: &str) -> bool {
        let Some(parts) = UrlParts::parse(url) else {
            return false;
        };
        if self.op.is_none() && self.tokens.is_empty() {
            return false;
        }
        let pattern_ok = match (self.op, self.value.as_deref()) {
            (Some(op), Some(value)) => self
                .candidates(url, &parts)
                .iter()
                .any(|c| self.compare(op, c, value)),
            (Some(_), None) => false,
            (None, _) => true,
        };
        pattern_ok && self.tokens.iter().all(|t| self.token_present(url, t))
    }

    fn candidates(&self, url: &str, parts: &UrlParts<'_>) -> Vec<String> {
        let raw: Vec<String> = match self.part {
            UrlPart::Url => vec![url.trim().to_string()],
            UrlPart::Host => vec![parts.host.to_string()],
            UrlPart::Path => vec![parts.path.to_string()],
            UrlPart::Query => vec![parts.query.to_string()],
            UrlPart::Fragment => vec![parts.fragment.to_string()],
            // Parameter values are decoded already.
            UrlPart::Param => {
                return self
                    .param
                    .as_deref()
                    .map(|p| parts.param_values(p))
                    .unwrap_or_default()
            }
        };
        let mut all = raw.clone();
        all.extend(
            raw.iter()
                .map(|r| percent_decode(r))
                .filter(|d| !raw.contains(d)),
        );
        all
    }

    fn compare(&self, op: MatchOp, candidate: &str, value: &str) -> bool {
        if op == MatchOp::Regex {
            let pattern = if self.case_sensitive {
                value.to_string()
            } else {
                format!("(?i){value}")
            };
            return regex_lite::Regex::new(&pattern).is_ok_and(|re| re.is_match(candidate));
        }
        let (c, v) = self.fold(candidate, value);
        match op {
            MatchOp::Contains => !v.is_empty() && c.contains(&v),
            MatchOp::Equals => c.trim_end_matches('/') == v.trim_end_matches('/'),
            MatchOp::Prefix => !v.is_empty() && c.starts_with(&v),
            MatchOp::Regex => false,
        }
    }

    fn token_present(&self, url: &str, token: &str) -> bool {
        if token.trim().is_empty() {
            return false;
        }
        let (u, t) = self.fold(url, token.trim());
        u.contains(&t) || percent_decode(&u).contains(&t)
    }

    fn fold(&self, a: &str, b: &str) -> (String, String) {
        if self.case_sensitive {
            (a.to_string(), b.to_string())
        } else {
            (a.to_lowercase(), b.to_lowercase())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cond(part: UrlPart, op: MatchOp, value: &str) -> UrlCondition {
        UrlCondition {
            part,
            param: None,
            op: Some(op),
            value: Some(value.into()),
            tokens: vec![],
            case_sensitive: false,
        }
    }

    #[test]
    fn ops_on_parts() {
        let url = "https://www.Eventbrite.com/d/japan--tokyo/events/?page=2";
        assert!(cond(UrlPart::Host, MatchOp::Contains, "eventbrite").matches(url));
        assert!(cond(UrlPart::Host, MatchOp::Equals, "www.eventbrite.com").matches(url));
        assert!(!cond(UrlPart::Host, MatchOp::Equals, "eventbrite.com").matches(url));
        assert!(cond(UrlPart::Path, MatchOp::Prefix, "/d/japan").matches(url));
        assert!(!cond(UrlPart::Path, MatchOp::Prefix, "/events").matches(url));
        assert!(cond(UrlPart::Query, MatchOp::Equals, "page=2").matches(url));
        assert!(cond(UrlPart::Url, MatchOp::Regex, r"/d/[a-z]+--tokyo/").matches(url));
        assert!(!cond(UrlPart::Url, MatchOp::Regex, r"^http://").matches(url));
    }

    #[test]
    fn equals_ignores_trailing_slash_like_url_match() {
        assert!(cond(UrlPart::Url, MatchOp::Equals, "http://localhost:7770")
            .matches("http://localhost:7770/"));
    }

    #[test]
    fn param_values_are_decoded() {
        let mut c = cond(UrlPart::Param, MatchOp::Equals, "san francisco");
        c.param = Some("city".into());
        assert!(c.matches("https://x.test/search?city=San+Francisco&d=1"));
        assert!(c.matches("https://x.test/search?city=San%20Francisco"));
        assert!(!c.matches("https://x.test/search?town=San+Francisco"));
    }

    #[test]
    fn tokens_all_required_and_empty_never_matches() {
        let c = UrlCondition::contains("event", vec!["tokyo".into()]);
        assert!(c.matches("https://www.eventbrite.com/d/japan--tokyo/events/"));
        assert!(!c.matches("https://www.eventbrite.com/d/ca--san-francisco/events/"));
        let empty = UrlCondition::contains("event", vec![String::new()]);
        assert!(!empty.matches("https://www.eventbrite.com/"));
        let only_tokens = UrlCondition {
            op: None,
            value: None,
            ..UrlCondition::contains("", vec!["tokyo".into(), "hotel".into()])
        };
        assert!(only_tokens.matches("https://trip.test/hotels?city=Tokyo"));
        assert!(!only_tokens.matches("https://trip.test/cars?city=Tokyo"));
    }

    #[test]
    fn case_sensitivity_is_opt_in() {
        let mut c = cond(UrlPart::Path, MatchOp::Contains, "Tokyo_Tower");
        assert!(c.matches("https://w.test/wiki/tokyo_tower"));
        c.case_sensitive = true;
        assert!(!c.matches("https://w.test/wiki/tokyo_tower"));
        assert!(c.matches("https://w.test/wiki/Tokyo_Tower"));
    }

    #[test]
    fn non_urls_never_match() {
        assert!(!UrlCondition::contains("a", vec![]).matches("about:blank"));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// An empty or blank token is never a free pass, whatever the URL and pattern.
        #[test]
        fn blank_token_never_matches(
            url in "https?://[a-z.]{1,12}(:[0-9]{2,4})?(/[a-zA-Z0-9%+_-]{0,10}){0,3}(\\?[a-z]=[a-z0-9+%]{0,6})?",
            blank in "[ \t]{0,3}",
            keyword in "[a-z]{0,3}",
        ) {
            let with_blank = UrlCondition::contains(&keyword, vec!["tokyo".into(), blank.clone()]);
            prop_assert!(!with_blank.matches(&url));
            let only_blank = UrlCondition { op: None, value: None, ..UrlCondition::contains("", vec![blank]) };
            prop_assert!(!only_blank.matches(&url));
        }
    }
}
