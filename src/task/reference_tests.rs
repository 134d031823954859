//! Reference steps: targets found, replaced by ids, and bad steps explained.

use super::*;

fn step(text: &str) -> ReferenceStep {
    ReferenceStep::parse(text).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

fn error(text: &str) -> String {
    match ReferenceStep::parse(text) {
        Ok(s) => panic!("{text:?} should be refused, got {s:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn click_target_becomes_an_id() {
    let s = step("click {link 'Tokyo'}");
    assert_eq!(
        s.target(),
        Some(&ElementTarget {
            role: "link".into(),
            name: "Tokyo".into()
        })
    );
    assert_eq!(s.with_id(12), "click [12]");
    assert_eq!(s.action(12), Ok(Action::Click { id: 12 }));
    assert_eq!(s.kind(), ActionKind::Click);
}

#[test]
fn type_keeps_its_text_and_flag_even_with_braces_in_the_text() {
    let s = step("type {searchbox 'Search'} [{weird} text] [0]");
    assert_eq!(s.with_id(5), "type [5] [{weird} text] [0]");
    assert_eq!(
        s.action(5),
        Ok(Action::Type {
            id: 5,
            text: "{weird} text".into(),
            press_enter: false
        })
    );
}

#[test]
fn names_use_the_observation_quoting_with_escapes() {
    let s = step(r#"click {link "Rock 'n' roll"}"#);
    assert_eq!(s.target().map(|t| t.name.as_str()), Some("Rock 'n' roll"));
    let s = step(r"hover {button 'it\'s \xa0 here\\'}");
    assert_eq!(
        s.target().map(|t| t.name.as_str()),
        Some("it's \u{a0} here\\")
    );
    // Printing gives the form the observation shows: Python switches to double
    // quotes for a name with a single quote in it.
    assert_eq!(
        s.target().map(|t| t.to_string()),
        Some(r#"{button "it's \xa0 here\\"}"#.to_string())
    );
}

#[test]
fn steps_without_elements_pass_through() {
    assert_eq!(
        step("goto [http://a.test/{x}]").with_id(3),
        "goto [http://a.test/{x}]"
    );
    assert_eq!(step("  stop [Tokyo]  ").with_id(3), "stop [Tokyo]");
    assert_eq!(step("scroll [down]").kind(), ActionKind::Scroll);
}

#[test]
fn bad_steps_say_what_to_write() {
    assert!(error("click [12]").contains("{role 'name'}"));
    assert!(error("stop {link 'x'}").contains("takes no element"));
    assert!(error("click {link 'Tokyo'").contains("not closed"));
    assert!(error("click {link Tokyo}").contains("in quotes"));
    assert!(error("click {'Tokyo'}").contains("role is missing"));
    assert!(error("click {link 'a' 'b'}").contains("one quoted name"));
    assert!(error("clik {link 'a'}").contains("does not parse"));
    assert!(error("type {textbox 'q'}").contains("missing text"));
}
