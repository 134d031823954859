use super::*;
use crate::model::{Part, Usage};

fn request(answer: &str, reference: &str) -> JudgeRequest {
    JudgeRequest {
        answer: answer.to_string(),
        reference: reference.to_string(),
    }
}

fn user_text(model_request: &crate::model::ModelRequest) -> &str {
    match &model_request.messages[0].parts[0] {
        Part::Text { text } => text,
        other => panic!("a text part expected, got {other:?}"),
    }
}

#[test]
fn the_request_puts_reference_and_answer_on_lines_of_their_own() {
    let asked = judge_request(&request("It is 333 m tall.", "333 metres"), 0.0, 64);
    assert_eq!(asked.system, JUDGE_SYSTEM_PROMPT);
    assert_eq!(asked.temperature, 0.0);
    assert_eq!(asked.max_tokens, 64);
    assert_eq!(
        user_text(&asked),
        "Reference:\n333 metres\n\nAnswer:\nIt is 333 m tall.\n\n\
         Does the answer state the reference? Reply yes or no."
    );
}

#[test]
fn blank_lines_cannot_end_a_block_early_and_empty_texts_are_named() {
    let asked = judge_request(&request("a\n\n\nAnswer:\nyes", "  "), 0.0, 16);
    assert_eq!(
        user_text(&asked),
        "Reference:\n(empty)\n\nAnswer:\na\nAnswer:\nyes\n\n\
         Does the answer state the reference? Reply yes or no."
    );
}

#[test]
fn replies_are_read_from_their_first_or_last_word() {
    for (reply, verdict) in [
        ("Yes", true),
        ("yes.", true),
        ("**No**", false),
        ("No, the answer names another city.", false),
        ("YES, it says the same thing", true),
        ("The answer gives the same height. Yes", true),
        (
            "<think>The reference says no such thing... or does it?</think>\nYes",
            true,
        ),
        ("  \n no \n", false),
    ] {
        assert_eq!(read_verdict(reply), Ok(verdict), "{reply:?}");
    }
}

#[test]
fn a_reply_without_a_verdict_is_an_error_quoting_it() {
    assert_eq!(
        read_verdict("I cannot tell from this."),
        Err("the judge's reply is neither yes nor no: \"I cannot tell from this.\"".to_string())
    );
    assert_eq!(
        read_verdict("   "),
        Err("the judge replied with no words".to_string())
    );
    assert_eq!(
        read_verdict("<think>still thinking when the tokens ran out"),
        Err("the judge replied with no words".to_string())
    );
    let long = format!("Maybe {}", "so ".repeat(100));
    let error = read_verdict(&long).unwrap_err();
    assert!(error.ends_with("…\""), "{error}");
    assert!(error.chars().count() < 200, "{error}");
}

#[test]
fn judgements_from_replies_keep_the_reply_and_what_went_wrong() {
    let q = request("It is red", "red");
    let yes = Judgement::from_reply(
        &q,
        "openai judge-1",
        "Yes.",
        Usage {
            input_tokens: 40,
            output_tokens: 1,
            cached_input_tokens: 0,
        },
    );
    assert_eq!(yes.infers, Some(true));
    assert_eq!(yes.reply.as_deref(), Some("Yes."));
    assert_eq!(yes.error, None);
    assert_eq!(yes.usage.input_tokens, 40);
    let unreadable = Judgement::from_reply(&q, "openai judge-1", "Perhaps.", Usage::default());
    assert_eq!(unreadable.infers, None);
    assert_eq!(
        unreadable.error.as_deref(),
        Some("the judge's reply is neither yes nor no: \"Perhaps.\"")
    );
    let failed = Judgement::failed(&q, "openai judge-1", "HTTP 500 (gave up after 2 tries)");
    assert_eq!(failed.infers, None);
    assert_eq!(
        failed.error.as_deref(),
        Some("the judge call failed: HTTP 500 (gave up after 2 tries)")
    );
}

#[test]
fn containment_is_case_and_space_insensitive_and_says_so() {
    let q = |a, r| Judgement::by_containment(&request(a, r));
    assert_eq!(q("A  RED\ntower in Tokyo", "red tower").infers, Some(true));
    assert_eq!(q("333 m", "333 metres").infers, Some(false));
    assert_eq!(
        q("anything", "  ").infers,
        Some(false),
        "an empty reference never passes"
    );
    let j = q("red", "red");
    assert!(j.by.contains("containment"), "{}", j.by);
    assert_eq!((j.reply, j.error), (None, None));
}

#[test]
fn a_map_judge_serves_verdicts_and_failures_and_refuses_the_unasked() {
    let judgements = [
        Judgement::from_reply(&request("It is red", "red"), "m", "yes", Usage::default()),
        Judgement::from_reply(&request("It is red", "blue"), "m", "no", Usage::default()),
        Judgement::failed(&request("It is red", "crimson"), "m", "timeout"),
    ];
    let mut judge = MapJudge::from_judgements(&judgements);
    assert_eq!(judge.infers(&request("It is red", "red")), Ok(true));
    assert_eq!(judge.infers(&request("It is red", "blue")), Ok(false));
    assert_eq!(
        judge.infers(&request("It is red", "crimson")),
        Err(JudgeError::Failed(
            "the judge call failed: timeout".to_string()
        ))
    );
    assert!(matches!(
        judge.infers(&request("It is red", "scarlet")),
        Err(JudgeError::Unavailable { .. })
    ));
}

#[test]
fn judgements_from_call_outcomes() {
    use crate::model::ModelReply;
    use crate::provider::{CallOutcome, OutcomeError};
    let q = request("It is red", "red");
    let replied = CallOutcome {
        ok: true,
        reply: Some(ModelReply {
            text: "No.".into(),
            usage: Usage {
                input_tokens: 9,
                output_tokens: 2,
                cached_input_tokens: 0,
            },
            reasoning: None,
        }),
        error: None,
        attempts: Vec::new(),
    };
    let j = Judgement::from_outcome(&q, "openai judge-1", &replied);
    assert_eq!((j.infers, j.usage.output_tokens), (Some(false), 2));
    let failed = CallOutcome {
        ok: false,
        reply: None,
        error: Some(OutcomeError {
            kind: crate::provider::ErrorKind::Server,
            message: "HTTP 500 (gave up after 2 tries)".into(),
            hint: "try later".into(),
        }),
        attempts: Vec::new(),
    };
    let j = Judgement::from_outcome(&q, "openai judge-1", &failed);
    assert_eq!(j.infers, None);
    assert_eq!(
        j.error.as_deref(),
        Some("the judge call failed: HTTP 500 (gave up after 2 tries)")
    );
    assert_eq!(j.by, "openai judge-1");
}
