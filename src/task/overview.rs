//! What a task picker shows of a task before it runs: the intent, how many hops, which
//! sites it goes to, and whether the replay agent can run it. Built from a task file's
//! text through the importers, so a file the picker lists is one a run will accept.

use crate::import::{import_str, Format};
use serde::Serialize;
use std::path::Path;

use super::Task;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TaskOverview {
    pub id: String,
    pub intent: String,
    pub hops: usize,
    /// Each start URL's and reference site's host, first seen first, with the
    /// reference site's label when the task gives one.
    pub sites: Vec<Site>,
    /// Whether the task carries a reference trajectory for the replay agent.
    pub replayable: bool,
    /// `hopbench`, `mmina` or `webarena`.
    pub format: &'static str,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Site {
    /// `host[:port]`, lower-cased.
    pub host: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// The overview of one task file's text; `file_name` names it in the error, which
/// says what is wrong and where (the importer's message).
pub fn overview_from_text(text: &str, file_name: &str) -> Result<TaskOverview, String> {
    let result = import_str(text, Path::new(file_name));
    let format = result.format.map_or("unknown", Format::name);
    let task = result.outcome.map_err(|e| e.to_string())?;
    if task.start_urls.is_empty() {
        return Err(format!(
            "{file_name}: the task has no start URL, so nothing can open it"
        ));
    }
    Ok(overview(&task, format))
}

fn overview(task: &Task, format: &'static str) -> TaskOverview {
    let starts = task.start_urls.iter().map(|u| (u, None));
    let references = task
        .reference_sites
        .iter()
        .map(|s| (&s.url, Some(&s.label)));
    let mut sites: Vec<Site> = Vec::new();
    for (url, label) in starts.chain(references) {
        let Some(host) = host_of(url) else { continue };
        match sites.iter_mut().find(|s| s.host == host) {
            // A start page's host named later by a reference site gets its label.
            Some(known) => {
                if known.label.is_none() {
                    known.label = label.cloned();
                }
            }
            None => sites.push(Site {
                host,
                label: label.cloned(),
            }),
        }
    }
    TaskOverview {
        id: task.id.clone(),
        intent: task.intent.clone(),
        hops: task.hops.len(),
        sites,
        replayable: !task.reference_trajectory.is_empty(),
        format,
    }
}

/// `host[:port]` of an absolute URL; `None` for anything without `scheme://host`.
fn host_of(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    // Credentials never belong in a display of sites.
    let host = authority.rsplit('@').next()?;
    (!host.is_empty()).then(|| host.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    const OURS: &str = r#"{
      "id": "demo/two-sites",
      "intent": "Find the tower, then its events.",
      "start_urls": ["http://127.0.0.1:8600/wiki/Tower", "http://127.0.0.1:8600/other"],
      "reference_sites": [{"label": "Events", "url": "http://Events.example:8605/"}],
      "hops": [
        {"condition": {"kind": "url", "op": "contains", "value": "/wiki/Tower"}},
        {"condition": {"kind": "url", "op": "contains", "value": "events"}}
      ],
      "reference_trajectory": ["click {link 'Tower'}"]
    }"#;

    #[test]
    fn lists_intent_hop_count_and_sites_once_each() {
        let o = overview_from_text(OURS, "two-sites.json").expect("valid task");
        assert_eq!(o.id, "demo/two-sites");
        assert_eq!(o.intent, "Find the tower, then its events.");
        assert_eq!(o.hops, 2);
        let site = |host: &str, label: Option<&str>| Site {
            host: host.to_string(),
            label: label.map(str::to_string),
        };
        assert_eq!(
            o.sites,
            vec![
                site("127.0.0.1:8600", None),
                site("events.example:8605", Some("Events"))
            ]
        );
        assert!(o.replayable);
        assert_eq!(o.format, "hopbench");
    }

    #[test]
    fn a_task_without_reference_steps_is_not_replayable() {
        let plain = r#"{"id": "x", "intent": "i", "start_urls": ["http://a.test/"],
            "hops": [{"condition": {"kind": "url", "op": "contains", "value": "a"}}]}"#;
        let o = overview_from_text(plain, "x.json").expect("valid task");
        assert!(!o.replayable);
        assert_eq!(o.hops, 1);
    }

    #[test]
    fn a_bad_file_names_the_file_and_what_is_wrong() {
        let err = overview_from_text("{\"id\": ", "broken.json").expect_err("not JSON");
        assert!(err.contains("broken.json"), "{err}");
        let err = overview_from_text(r#"{"hello": 1}"#, "other.json").expect_err("no format");
        assert!(err.contains("other.json"), "{err}");
    }

    #[test]
    fn hosts_drop_credentials_and_paths() {
        assert_eq!(
            host_of("http://u:p@Site.test:81/a?b#c").as_deref(),
            Some("site.test:81")
        );
        assert_eq!(host_of("about:blank"), None);
    }
}
