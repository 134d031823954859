//! The OBJECTIVE line: the task's intent, plus its reference websites when the intent
//! does not already name them. MMInA packs its reference sites and per-hop stop hints
//! into the intent itself; tasks in our format keep the sites in `reference_sites`,
//! and the model would never see them otherwise.

use crate::task::Task;

pub fn objective(task: &Task) -> String {
    let intent = task.intent.trim();
    let missing: Vec<String> = task
        .reference_sites
        .iter()
        .filter(|site| !intent.contains(site.url.as_str()))
        .map(|site| format!("{}: {}", site.label, site.url))
        .collect();
    if missing.is_empty() {
        intent.to_string()
    } else {
        format!("{intent}\nReference websites: {}", missing.join(" | "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::import_str;
    use std::path::Path;

    fn task(json: &str, file: &str) -> Task {
        match import_str(json, Path::new(file)).outcome {
            Ok(task) => task,
            Err(e) => panic!("fixture task should import: {e}"),
        }
    }

    #[test]
    fn our_format_appends_reference_sites() {
        let t = task(
            r#"{"id": "t", "intent": "Find events in the city with a red tower.",
                "start_urls": ["http://wiki.test/"],
                "reference_sites": [{"label": "Events", "url": "http://events.test/"},
                                    {"label": "Wiki", "url": "http://wiki.test/"}],
                "hops": [{"condition": {"kind": "url", "op": "contains", "value": "events"}}]}"#,
            "t.json",
        );
        assert_eq!(
            objective(&t),
            "Find events in the city with a red tower.\n\
             Reference websites: Events: http://events.test/ | Wiki: http://wiki.test/"
        );
    }

    #[test]
    fn mmina_intents_already_carry_their_sites_and_stop_hints() {
        // The shared data folder, as tests/common finds it.
        let shared = std::env::var_os("HOPBENCH_SHARED")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| {
                std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared")
            });
        let path = shared.join("data/mmina-task-17.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            panic!("{} is needed by this test", path.display())
        };
        let t = task(&text, "normal/17.json");
        assert!(!t.reference_sites.is_empty());
        let objective = objective(&t);
        assert_eq!(objective, t.intent.trim());
        assert!(objective.contains("Book a flight:https://www.momondo.com/"));
        assert!(objective.contains("finished just after click the search button"));
    }
}
