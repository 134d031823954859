//! The sites a task names: its start URLs, its reference sites, and the sites its hop
//! conditions pin down. Conditions are data of several kinds; only those that name
//! one site exactly contribute (docs/security.md, "Which sites a task names"):
//!
//! - `url` on the whole URL with `equals`, `prefix` or `contains` whose value is an
//!   absolute http(s) URL: that URL's origin (a value such as `eventbrite` or
//!   `/d/japan` names no site);
//! - `url` on the host with `equals`: that host over http and https on their default
//!   ports (the host part carries no port);
//! - `regex` patterns, other URL parts (path, query, parameters, fragment), `tokens`,
//!   `answer` and `page_text` conditions name no site: a pattern describes a set of
//!   URLs that cannot be listed, and the rest are not about where a page is;
//! - `not`: names no site, whatever it contains (it says where a page must not be);
//! - `all` / `any`: every site their parts name.

use super::origin::Origin;
use crate::condition::{Condition, MatchOp, UrlCondition, UrlPart};
use crate::task::Task;

/// Every origin the task names, each with why, in task order (duplicates kept: the
/// caller merges their reasons).
pub fn task_origins(task: &Task) -> Vec<(Origin, String)> {
    let mut out = Vec::new();
    for url in &task.start_urls {
        if let Ok(origin) = Origin::of_url(url) {
            out.push((origin, "start URL".to_owned()));
        }
    }
    for site in &task.reference_sites {
        if let Ok(origin) = Origin::of_url(&site.url) {
            out.push((origin, format!("reference site {:?}", site.label)));
        }
    }
    for (i, hop) in task.hops.iter().enumerate() {
        let reason = format!("hop {} condition", i + 1);
        for origin in condition_origins(&hop.condition) {
            out.push((origin, reason.clone()));
        }
    }
    out
}

/// The origins one condition names (see the module comment for the rules).
pub fn condition_origins(condition: &Condition) -> Vec<Origin> {
    match condition {
        Condition::Url(url) => url_condition_origins(url),
        Condition::All { of } | Condition::Any { of } => {
            of.iter().flat_map(condition_origins).collect()
        }
        // A negation names where the agent must not be (MMInA's "has left Kiwix").
        Condition::Not(_) | Condition::Answer(_) | Condition::PageText(_) => Vec::new(),
    }
}

fn url_condition_origins(c: &UrlCondition) -> Vec<Origin> {
    let (Some(op), Some(value)) = (c.op, c.value.as_deref()) else {
        return Vec::new();
    };
    match (c.part, op) {
        (UrlPart::Url, MatchOp::Equals | MatchOp::Prefix | MatchOp::Contains) => {
            let value = value.trim();
            let absolute = ["http://", "https://"].iter().any(|s| {
                value
                    .get(..s.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(s))
            });
            if !absolute {
                return Vec::new();
            }
            Origin::of_url(value).map(|o| vec![o]).unwrap_or_default()
        }
        (UrlPart::Host, MatchOp::Equals) => Origin::of_bare_host(value.trim())
            .map(Vec::from)
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}
