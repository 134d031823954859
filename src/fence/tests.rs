//! Which origins a task's fence allows, and how the person's lists change it.

use super::*;
use crate::import::import_str;
use crate::task::parse_task;
use std::path::Path;

/// A task on two sandbox sites whose hops name a third site in three ways and use
/// every kind of condition that names none.
const TASK: &str = r#"{
  "id": "fence/demo",
  "intent": "Find the tower, then events in its city.",
  "start_urls": ["http://127.0.0.1:8600/wiki/Main"],
  "reference_sites": [{"label": "Events", "url": "http://127.0.0.1:8605/"}],
  "hops": [
    {"condition": {"kind": "url", "part": "path", "op": "prefix", "value": "/wiki/"}},
    {"condition": {"kind": "all", "of": [
      {"kind": "url", "op": "prefix", "value": "HTTP://127.0.0.1:8606/events"},
      {"kind": "url", "op": "regex", "value": "^https://regex\\.test/"},
      {"kind": "url", "part": "param", "param": "city", "op": "equals", "value": "https://param.test/"},
      {"kind": "url", "op": "contains", "value": "events.test/d", "tokens": ["https://token.test"]}
    ]}},
    {"condition": {"kind": "any", "of": [
      {"kind": "url", "part": "host", "op": "equals", "value": "Shop.Example.com"},
      {"kind": "url", "part": "host", "op": "contains", "value": "contains.test"},
      {"kind": "page_text", "contains": ["https://text.test/"]},
      {"kind": "not", "condition": {"kind": "url", "op": "prefix", "value": "https://not.test/"}}
    ]}},
    {"condition": {"kind": "url", "op": "equals", "value": "https://www.example.org:8443/a?b=1"}}
  ],
  "final_answer": {"condition": {"must_include": ["https://answer.test/"]}}
}"#;

fn task() -> Task {
    parse_task(TASK).unwrap()
}

fn origins(fence: &SiteFence) -> Vec<&str> {
    fence.origins.iter().map(|o| o.origin.as_str()).collect()
}

fn reasons<'f>(fence: &'f SiteFence, origin: &str) -> &'f [String] {
    &fence
        .origins
        .iter()
        .find(|o| o.origin == origin)
        .unwrap_or_else(|| panic!("{origin} not allowed: {:?}", origins(fence)))
        .reasons
}

#[test]
fn start_reference_and_hop_sites_are_allowed_and_nothing_else() {
    let fence = fence_for(&task(), &SiteLists::default()).unwrap();
    assert_eq!(
        origins(&fence),
        [
            "http://127.0.0.1:8600",
            "http://127.0.0.1:8605",
            "http://127.0.0.1:8606",
            // host equals: that host over both schemes, plus its www form.
            "http://shop.example.com",
            "http://www.shop.example.com",
            "https://example.org:8443",
            "https://shop.example.com",
            "https://www.example.org:8443",
            "https://www.shop.example.com",
        ]
    );
    assert_eq!(reasons(&fence, "http://127.0.0.1:8600"), ["start URL"]);
    assert_eq!(
        reasons(&fence, "http://127.0.0.1:8605"),
        ["reference site \"Events\""]
    );
    assert_eq!(
        reasons(&fence, "http://127.0.0.1:8606"),
        ["hop 2 condition"]
    );
    assert_eq!(
        reasons(&fence, "https://example.org:8443"),
        ["redirect form of https://www.example.org:8443"]
    );
    assert!(fence.denied.is_empty());
}

#[test]
fn conditions_that_name_no_single_site_add_nothing() {
    let fence = fence_for(&task(), &SiteLists::default()).unwrap();
    for url in [
        "https://regex.test/x",
        "https://param.test/",
        "https://token.test/",
        "https://events.test/d",
        "https://contains.test/",
        "https://text.test/",
        "https://not.test/",
        "https://answer.test/",
    ] {
        assert!(!fence.allows(url), "{url} should be outside the fence");
    }
}

#[test]
fn allows_compares_whole_origins() {
    let fence = fence_for(&task(), &SiteLists::default()).unwrap();
    assert!(fence.allows("http://127.0.0.1:8600/wiki/Tokyo?x=1#top"));
    assert!(fence.allows("HTTP://127.0.0.1:8605"));
    // Same host, other port or scheme: another origin.
    assert!(!fence.allows("http://127.0.0.1:8601/"));
    assert!(!fence.allows("https://127.0.0.1:8600/"));
    assert!(!fence.allows("http://localhost:8600/"));
    assert!(!fence.allows("javascript:alert(1)"));
    assert!(!fence.allows("file:///etc/passwd"));
    // A default port written out is the same origin.
    assert!(fence.allows("https://shop.example.com:443/cart"));
}

#[test]
fn plain_http_sites_also_allow_their_https_upgrade_and_www_forms() {
    let upgraded = Origin::of_url("http://example.com/").unwrap().twins();
    let texts: Vec<String> = upgraded.iter().map(Origin::to_string).collect();
    assert_eq!(
        texts,
        [
            "http://www.example.com",
            "https://www.example.com",
            "https://example.com"
        ]
    );
    // No twins for loopback, IPs or non-default ports' upgrades.
    assert!(Origin::of_url("http://127.0.0.1:8600/")
        .unwrap()
        .twins()
        .is_empty());
    assert!(
        Origin::of_url("http://localhost/").unwrap().twins()
            == [Origin {
                scheme: Scheme::Https,
                host: "localhost".into(),
                port: None
            }]
    );
    let www = Origin::of_url("https://www.example.com:8443/")
        .unwrap()
        .twins();
    assert_eq!(www.len(), 1);
    assert_eq!(www[0].to_string(), "https://example.com:8443");
}

#[test]
fn settings_add_and_remove_origins() {
    let lists = SiteLists {
        allow: vec![
            "# login for the shop".into(),
            "".into(),
            "https://accounts.example.net/login".into(),
            "127.0.0.1:9000".into(),
        ],
        deny: vec!["http://127.0.0.1:8606".into(), "shop.example.com".into()],
    };
    let fence = fence_for(&task(), &lists).unwrap();
    assert!(fence.allows("https://accounts.example.net/other"));
    assert!(fence.allows("http://127.0.0.1:9000/"));
    assert!(fence.allows("https://127.0.0.1:9000/"));
    assert_eq!(
        reasons(&fence, "https://accounts.example.net"),
        ["added in Settings"]
    );
    assert!(!fence.allows("http://127.0.0.1:8606/events"));
    assert!(!fence.allows("https://shop.example.com/"));
    assert!(!fence.allows("http://shop.example.com/"));
    // The www forms were not denied: deny lists name exact origins.
    assert!(fence.allows("https://www.shop.example.com/"));
    assert_eq!(
        fence.denied,
        [
            "http://127.0.0.1:8606",
            "http://shop.example.com",
            "https://shop.example.com"
        ]
    );
}

#[test]
fn bad_list_lines_are_reported_with_their_line() {
    let lists = SiteLists {
        allow: vec!["https://ok.test".into(), "*.example.com".into()],
        deny: vec![
            "ftp://files.test".into(),
            "http://bad host".into(),
            "x.test:99999".into(),
        ],
    };
    let problems: Vec<String> = list_problems(&lists)
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(problems.len(), 4, "{problems:?}");
    assert!(
        problems[0]
            .starts_with("sites.allow: line 2: wildcards are not supported (\"*.example.com\")"),
        "{}",
        problems[0]
    );
    assert!(problems[1]
        .starts_with("sites.deny: line 1: \"ftp://files.test\" is not an http(s) address"));
    assert!(problems[2].starts_with("sites.deny: line 2: host \"bad host\""));
    assert!(problems[3].starts_with("sites.deny: line 3: port \"99999\""));
    assert_eq!(fence_for(&task(), &lists).unwrap_err().len(), 4);
}

#[test]
fn an_imported_mmina_task_allows_its_reference_urls() {
    let text = include_str!("../../tests/fixtures/mmina/compare/1.json");
    let task = import_str(text, Path::new("compare/1.json"))
        .outcome
        .unwrap();
    let fence = fence_for(&task, &SiteLists::default()).unwrap();
    for url in [
        "https://library.kiwix.org/viewer#wikipedia",
        "https://www.eventbrite.com/d/japan--tokyo/events/",
        "https://eventbrite.com/",
        "http://localhost:7770/",
        "https://www.momondo.com/",
    ] {
        assert!(fence.allows(url), "{url}: {:?}", origins(&fence));
    }
    assert!(!fence.allows("https://attacker.example/"));
}
