//! Reading internally tagged JSON (`{"kind": "click", "id": 3}`) through one flat
//! struct of optional fields, for the types the wasm reads most.
//!
//! Why: serde's derive reads an internally tagged enum (or a struct with a
//! `#[serde(flatten)]` enum) by buffering the whole object and reading each variant
//! from the buffer, which compiles a second copy of every variant's reading code for
//! each place the type is read. A flat struct reads the same objects with a fraction
//! of the code. Unknown fields are ignored and a missing field is named, as with the
//! derive; writing still uses the derive.

/// The field's value, or the derive's message for a missing field (serde adds the
/// position).
pub(crate) fn need<T>(value: Option<T>, name: &str) -> Result<T, String> {
    value.ok_or_else(|| format!("missing field `{name}`"))
}

#[cfg(test)]
mod tests {
    use crate::evaluator::{HopState, HopStatus};
    use crate::event::Event;
    use crate::model::Part;

    /// Each type written by its derive reads back equal through its flat struct.
    #[test]
    fn written_values_read_back_equal() {
        let events = [
            Event::navigation(2, 40, 1, "http://a.test/x"),
            Event::answer(3, 50, "Paris"),
            Event::page_text(4, 60, 2, "http://b.test/", "some text"),
        ];
        for event in events {
            let json = serde_json::to_string(&event).unwrap();
            assert_eq!(
                serde_json::from_str::<Event>(&json).unwrap(),
                event,
                "{json}"
            );
        }
        for state in [
            HopState::Done {
                step: 4,
                time_ms: 900,
            },
            HopState::Current,
            HopState::Waiting,
        ] {
            let status = HopStatus {
                index: 1,
                description: "the city page".into(),
                state,
            };
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(
                serde_json::from_str::<HopStatus>(&json).unwrap(),
                status,
                "{json}"
            );
        }
        let parts = [
            Part::text("hello"),
            Part::Image {
                mime: "image/png".into(),
                base64: "AAAA".into(),
            },
        ];
        for part in parts {
            let json = serde_json::to_string(&part).unwrap();
            assert_eq!(serde_json::from_str::<Part>(&json).unwrap(), part, "{json}");
        }
    }

    /// A field the named variant needs is reported by name; a wrong tag names itself.
    #[test]
    fn missing_fields_and_unknown_tags_are_named() {
        let error = |result: Result<Event, serde_json::Error>| result.unwrap_err().to_string();
        let missing = error(serde_json::from_str(
            r#"{"step":1,"time_ms":2,"type":"navigation","tab":1}"#,
        ));
        assert!(missing.starts_with("missing field `url`"), "{missing}");
        let unknown = error(serde_json::from_str(
            r#"{"step":1,"time_ms":2,"type":"click"}"#,
        ));
        assert!(unknown.starts_with("unknown variant `click`"), "{unknown}");

        let done = serde_json::from_str::<HopStatus>(
            r#"{"index":0,"description":"d","state":"done","step":3}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(done.starts_with("missing field `time_ms`"), "{done}");
        let image =
            serde_json::from_str::<Part>(r#"{"type":"image","mime":"image/png","extra":1}"#)
                .unwrap_err()
                .to_string();
        assert!(image.starts_with("missing field `base64`"), "{image}");
    }
}
