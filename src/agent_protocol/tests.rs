//! Reading the agent's replies; the brief made from a task.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests: a panic with the value is the failure report"
)]

use super::*;

#[test]
fn a_step_reply_holds_the_action_its_reasoning_and_usage() {
    let reply = read_reply(
        r#"{"action": "click [12]", "reasoning": "the link", "usage": {"input_tokens": 7, "output_tokens": 2}, "extra": 1}"#,
    )
    .unwrap();
    let AgentReply::Step(step) = reply else {
        panic!("a step reply")
    };
    assert_eq!(step.action, "click [12]");
    assert_eq!(step.reasoning.as_deref(), Some("the link"));
    assert_eq!(
        step.usage,
        Some(ReplyUsage {
            input_tokens: 7,
            output_tokens: 2
        })
    );
}

#[test]
fn a_hello_reply_gives_the_name_and_version_reports_show() {
    let AgentReply::Hello(hello) =
        read_reply(r#"{"protocol": 1, "name": "follow-links", "version": "0.1.0"}"#).unwrap()
    else {
        panic!("a hello reply")
    };
    assert_eq!(hello.label(), "follow-links 0.1.0");
    let AgentReply::Hello(bare) = read_reply(r#"{"name": " mine "}"#).unwrap() else {
        panic!("a hello reply")
    };
    assert_eq!(bare.label(), "mine");
}

#[test]
fn replies_that_break_the_contract_say_what_was_wrong() {
    let cases = [
        ("<html>502</html>", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        (r#"{"answer": "x"}"#, "neither \"action\""),
        (r#"{"action": 3}"#, "step reply is malformed"),
        (
            r#"{"action": "click [1]", "protocol": 2}"#,
            "speaks protocol 2",
        ),
    ];
    for (body, expected) in cases {
        let error = read_reply(body).unwrap_err();
        assert!(error.contains(expected), "{body}: {error}");
    }
}

#[test]
fn the_brief_is_the_task_as_a_person_reads_it() {
    let task = crate::task::parse_task(
        r#"{"id": "t", "intent": "Find the tower.", "start_urls": ["http://a.test/"],
            "reference_sites": [{"label": "A", "url": "http://a.test/"}],
            "hops": [{"description": "Reach the tower", "condition": {"kind": "url", "op": "contains", "value": "tower-42"}},
                     {"condition": {"kind": "answer", "must_include": ["333 m"]}}],
            "final_answer": {"condition": {"must_include": ["333 m"]}, "required": true},
            "reference_trajectory": ["click {link 'Tower'}", "stop [333 m]"]}"#,
    )
    .unwrap();
    let brief = serde_json::to_string(&TaskBrief::of(&task)).unwrap();
    assert_eq!(
        brief,
        r#"{"id":"t","intent":"Find the tower.","start_urls":["http://a.test/"],"sites":[{"label":"A","url":"http://a.test/"}],"hops":[{"description":"Reach the tower"},{"description":null}]}"#
    );
}
