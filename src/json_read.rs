//! Reading JSON with serde_json, a struct only from a JSON object.
//!
//! Why: serde's derived `Deserialize` of a struct accepts an object and also an array
//! of the fields in order, and serde_json's `deserialize_struct` compiles both readers
//! for every struct type it reads. Nothing the core reads has a struct written as an
//! array: run state and events come from serde_json or `JSON.stringify`, task files
//! and settings are objects by their schema, providers reply with objects. The array
//! readers were about a tenth of the wasm (77 KB raw, 25 KB gzipped). [`Objects`]
//! wraps serde_json's deserializer and asks it for a map wherever a type wants a
//! struct, so only the object reader is compiled. An array where an object belongs is
//! then an error naming the type, like any other wrong type ("invalid type: sequence,
//! expected struct Hop"), at the array.
//!
//! Every read of core types goes through here (`from_str`, or [`Objects`] around a
//! deserializer whose reading stops early on purpose): a type read both through here
//! and through serde_json directly is compiled twice, which costs more than the
//! wrapper saves (the wasm32 clippy stage rejects direct reads). The wrapper only
//! forwards: what it compiles to is serde_json's own code, inlined.
//!
//! A struct variant of an externally tagged enum is read the same way: from an object
//! only, with serde_json's own errors otherwise.

use serde::de::{
    self, Deserialize, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};
use std::fmt;

/// `serde_json::from_str` with structs read from objects only: the value, then only
/// whitespace to the end of the text.
pub fn from_str<'a, T: Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Objects(&mut reader))?;
    reader.end()?;
    Ok(value)
}

/// `serde_json::from_value` with structs read from objects only.
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value) -> serde_json::Result<T> {
    T::deserialize(Objects(value))
}

/// A deserializer that reads structs as maps and hands the same wrapper to every
/// value inside (through the access types and seeds below).
pub struct Objects<D>(pub D);

/// Forwards `deserialize_*` methods that take only a visitor.
macro_rules! forward {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(Wrap(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Objects<D> {
    type Error = D::Error;

    forward! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Wrap(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, Wrap(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Wrap(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, Wrap(visitor))
    }

    /// The point of the wrapper: a map, so the visitor's `visit_seq` is never compiled.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(Wrap(visitor))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, Wrap(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// A visitor that wraps what it is handed (deserializers, accesses) in `Objects`.
struct Wrap<V>(V);

/// Forwards `visit_*` methods that take a plain value.
macro_rules! forward_visit {
    ($($method:ident($ty:ty))*) => {$(
        fn $method<E: de::Error>(self, value: $ty) -> Result<V::Value, E> {
            self.0.$method(value)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)
    }

    forward_visit! {
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64)
        visit_i128(i128) visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64)
        visit_u128(u128) visit_f32(f32) visit_f64(f64) visit_char(char) visit_str(&str)
        visit_borrowed_str(&'de str) visit_string(String) visit_bytes(&[u8])
        visit_borrowed_bytes(&'de [u8]) visit_byte_buf(Vec<u8>)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Objects(deserializer))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Objects(deserializer))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Wrap(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Wrap(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Wrap(data))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Wrap<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Wrap<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Seed(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Wrap<A> {
    type Error = A::Error;
    type Variant = Wrap<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(Seed(seed))?;
        Ok((value, Wrap(variant)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Wrap<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap(visitor))
    }

    /// The variant's own reader, so a variant written as a bare name fails as in
    /// serde_json; its value is taken from an object only.
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, ObjectOnly(visitor))
    }
}

/// A seed that deserializes through `Objects`.
struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Objects(deserializer))
    }
}

/// A visitor that takes an object only: anything else, an array too, is serde's
/// "invalid type" error naming what `V` expects. `V`'s own `visit_seq` is never called,
/// so it is never compiled.
struct ObjectOnly<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for ObjectOnly<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Wrap(map))
    }
}

#[cfg(test)]
mod tests {
    use super::from_str;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Debug, PartialEq, Deserialize)]
    struct Inner {
        name: String,
        #[serde(default)]
        tags: Vec<String>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Shape {
        Dot,
        Line(u32),
        Pair(u32, u32),
        Box { w: u32, h: Option<u32> },
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Tagged {
        Click { id: u32 },
        Type { id: u32, text: String },
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Outer {
        inner: Inner,
        list: Vec<Inner>,
        map: BTreeMap<String, Inner>,
        maybe: Option<Inner>,
        shapes: Vec<Shape>,
        tagged: Vec<Tagged>,
        pair: (u8, String),
        id: Id,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Id(u64);

    /// Every shape serde_json reads: nested structs, sequences, maps, options, each
    /// kind of enum variant, tuples and newtypes, read the same as serde_json does.
    #[test]
    fn reads_what_serde_json_reads() {
        let text = r#"{
            "inner": {"name": "a", "tags": ["x"]},
            "list": [{"name": "b"}, {"name": "c", "tags": []}],
            "map": {"k": {"name": "d"}},
            "maybe": {"name": "e"},
            "shapes": ["dot", {"line": 3}, {"pair": [1, 2]}, {"box": {"w": 4, "h": null}}],
            "tagged": [{"kind": "click", "id": 1}, {"text": "hi", "kind": "type", "id": 2}],
            "pair": [7, "seven"],
            "id": 42,
            "unknown": [1, {"a": null}]
        }"#;
        let ours: Outer = from_str(text).unwrap();
        let theirs: Outer = serde_json::from_str(text).unwrap();
        assert_eq!(ours, theirs);
        assert_eq!(ours.shapes[3], Shape::Box { w: 4, h: None });
        assert_eq!(
            ours.tagged[1],
            Tagged::Type {
                id: 2,
                text: "hi".into()
            }
        );
    }

    #[test]
    fn an_array_for_a_struct_is_an_error_naming_the_type() {
        let err = from_str::<Inner>(r#"["a", []]"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid type: sequence, expected struct Inner at line 1 column 0"
        );
        // serde_json alone would have read it.
        assert!(serde_json::from_str::<Inner>(r#"["a", []]"#).is_ok());
        let err = from_str::<Shape>(r#"{"box": [1, 2]}"#).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid type: sequence, expected struct variant Shape::Box"),
            "{err}"
        );
    }

    /// Errors are serde_json's, at the same position.
    #[test]
    fn errors_are_serde_jsons() {
        for text in [
            r#"{"name": 3}"#,
            r#"{"tags": []}"#,
            r#"{"name": "a", "name": "b"}"#,
            r#"{"name": "a",}"#,
            r#"{"name": "a"} x"#,
            r#"{"name": "a""#,
        ] {
            let ours = from_str::<Inner>(text).unwrap_err().to_string();
            let theirs = serde_json::from_str::<Inner>(text).unwrap_err().to_string();
            assert_eq!(ours, theirs, "{text}");
        }
        // A struct variant written as a bare name, or holding the wrong type.
        for text in [
            r#""box""#,
            r#"{"box": 3}"#,
            r#"{"box": {"w": "4"}}"#,
            r#"{"boxes": {}}"#,
        ] {
            let ours = from_str::<Shape>(text).unwrap_err().to_string();
            let theirs = serde_json::from_str::<Shape>(text).unwrap_err().to_string();
            assert_eq!(ours, theirs, "{text}");
        }
    }
}
