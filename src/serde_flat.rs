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

/// Reads a unit-only enum written as its variant's name (`"text+images"`), returning
/// the variant's index in `names`: what the derive does, with one visitor for all
/// such enums instead of one per enum (the derive's code was about 1.2 KiB per enum
/// and per deserializer). Errors are the derive's: serde's "unknown variant" with
/// the list of names, and serde_json's own for a value that is no variant.
pub(crate) fn unit_variant<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
    name: &'static str,
    names: &'static [&'static str],
) -> Result<usize, D::Error> {
    deserializer.deserialize_enum(name, names, UnitVariant { name, names })
}

/// `Deserialize` for a unit-only enum through [`unit_variant`]: the type, the name
/// serde reports, then each variant with its written name.
macro_rules! unit_enum_deserialize {
    ($ty:ident, $name:literal, { $($variant:ident = $text:literal),+ $(,)? }) => {
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                const NAMES: &[&str] = &[$($text),+];
                let index = crate::serde_flat::unit_variant(deserializer, $name, NAMES)?;
                [$($ty::$variant),+]
                    .into_iter()
                    .nth(index)
                    .ok_or_else(|| <D::Error as serde::de::Error>::custom("no such variant"))
            }
        }
    };
}
pub(crate) use unit_enum_deserialize;

#[derive(Clone, Copy)]
struct UnitVariant {
    name: &'static str,
    names: &'static [&'static str],
}

impl<'de> serde::de::Visitor<'de> for UnitVariant {
    type Value = usize;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "enum {}", self.name)
    }

    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<usize, A::Error> {
        use serde::de::VariantAccess;
        let (index, variant) = data.variant_seed(self)?;
        variant.unit_variant()?;
        Ok(index)
    }
}

/// The variant's name, as its index.
impl<'de> serde::de::DeserializeSeed<'de> for UnitVariant {
    type Value = usize;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(VariantName(self.names))
    }
}

struct VariantName(&'static [&'static str]);

impl serde::de::Visitor<'_> for VariantName {
    type Value = usize;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_u64<E: serde::de::Error>(self, index: u64) -> Result<usize, E> {
        match usize::try_from(index) {
            Ok(i) if i < self.0.len() => Ok(i),
            _ => Err(E::invalid_value(
                serde::de::Unexpected::Unsigned(index),
                &VariantCount(self.0.len()),
            )),
        }
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|name| *name == value)
            .ok_or_else(|| E::unknown_variant(value, self.0))
    }

    fn visit_bytes<E: serde::de::Error>(self, value: &[u8]) -> Result<usize, E> {
        match std::str::from_utf8(value) {
            Ok(text) => self.visit_str(text),
            Err(_) => Err(E::unknown_variant(&String::from_utf8_lossy(value), self.0)),
        }
    }
}

/// The derive's message for a variant index out of range: "variant index 0 <= i < N".
struct VariantCount(usize);

impl serde::de::Expected for VariantCount {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "variant index 0 <= i < {}", self.0)
    }
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

    /// The agent's phase and modular stage read back equal through their flat structs;
    /// a unit enum read by the shared visitor names the variants it knows.
    #[test]
    fn agent_phases_and_stages_read_back_equal() {
        use crate::agent::modular::Stage;
        use crate::agent::{FinishCause, Phase};
        let phases = [
            Phase::Observing,
            Phase::Acting,
            Phase::Finished {
                cause: FinishCause::AllHopsDone,
                reason: "done".into(),
                answer: Some("Paris".into()),
            },
            Phase::Finished {
                cause: FinishCause::Stopped,
                reason: "stop".into(),
                answer: None,
            },
        ];
        for phase in phases {
            let json = serde_json::to_string(&phase).unwrap();
            assert_eq!(
                serde_json::from_str::<Phase>(&json).unwrap(),
                phase,
                "{json}"
            );
        }
        for stage in [
            Stage::Planning,
            Stage::Grounding { section: 2 },
            Stage::Selecting,
        ] {
            let json = serde_json::to_string(&stage).unwrap();
            assert_eq!(
                serde_json::from_str::<Stage>(&json).unwrap(),
                stage,
                "{json}"
            );
        }
        let missing = serde_json::from_str::<Phase>(r#"{"name":"finished","reason":"r"}"#)
            .unwrap_err()
            .to_string();
        assert!(missing.starts_with("missing field `cause`"), "{missing}");
        let unknown = serde_json::from_str::<FinishCause>(r#""done""#)
            .unwrap_err()
            .to_string();
        assert!(
            unknown.starts_with("unknown variant `done`, expected one of `answered`, "),
            "{unknown}"
        );
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
