//! The sites a hop's conditions name, so the failure classifier can tell a move to the
//! hop's own site from wandering. Only what the conditions state plainly counts: a
//! whole-URL `prefix` or `equals` value, or a host `equals`; anything else (MMInA's
//! "URL contains `event`") names no site.

use crate::condition::{Condition, MatchOp, UrlCondition, UrlPart};
use crate::memory::site_of;
use crate::task::Task;

/// Per hop of `task`, the sites (`host[:port]`) its conditions name.
pub fn hop_sites(task: &Task) -> Vec<Vec<String>> {
    task.hops
        .iter()
        .map(|hop| {
            let mut sites = Vec::new();
            collect(&hop.condition, &mut sites);
            sites
        })
        .collect()
}

fn collect(condition: &Condition, sites: &mut Vec<String>) {
    match condition {
        Condition::Url(url) => {
            if let Some(site) = site_named(url) {
                if !sites.contains(&site) {
                    sites.push(site);
                }
            }
        }
        Condition::All { of } | Condition::Any { of } => {
            of.iter().for_each(|c| collect(c, sites));
        }
        Condition::Answer(_) | Condition::PageText(_) | Condition::Not(_) => {}
    }
}

fn site_named(url: &UrlCondition) -> Option<String> {
    let value = url.value.as_deref()?;
    match (url.part, url.op) {
        (UrlPart::Url, Some(MatchOp::Prefix | MatchOp::Equals)) => site_of(value),
        (UrlPart::Host, Some(MatchOp::Equals)) => Some(value.to_ascii_lowercase()),
        _ => None,
    }
}
