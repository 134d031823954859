//! The checkpoint table: which MMInA checkpoint needs which task field as URL tokens,
//! and which one completes on leaving its site.
//!
//! This is data (`checkpoints.json`), not code: MMInA's released code hard-codes these
//! site rules as string tests in its counting loop. `procedure.rs` turns them into hops.

use serde::Deserialize;

const TABLE_JSON: &str = include_str!("checkpoints.json");

#[derive(Debug, Deserialize)]
pub(crate) struct Table {
    rules: Vec<Rule>,
    default: DefaultRule,
}

#[derive(Debug, Deserialize)]
struct Rule {
    site: String,
    keywords: Vec<String>,
    token: Option<String>,
    /// The hop completes on leaving this site for the next checkpoint's, not on being
    /// there (MMInA's Wikipedia hop).
    #[serde(default)]
    completes_on_leaving: bool,
}

#[derive(Debug, Deserialize)]
struct DefaultRule {
    site: String,
    token: Option<String>,
}

/// What the table says about one checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Checkpoint<'a> {
    /// Human name of the site, for notes and descriptions.
    pub site: &'a str,
    /// The task field (`city`, `flight`, `shop`) whose words the URL must contain.
    pub token_field: Option<&'a str>,
    /// For a hop that completes on leaving its site: the keyword the URL must no
    /// longer contain (`kiwix`).
    pub leaves: Option<&'a str>,
}

impl Table {
    pub(crate) fn load() -> Result<Table, serde_json::Error> {
        crate::json_read::from_str(TABLE_JSON)
    }

    /// The rule for a (lowercased) checkpoint: the first rule with a keyword the
    /// checkpoint contains, else the default.
    pub(crate) fn lookup(&self, checkpoint: &str) -> Checkpoint<'_> {
        for rule in &self.rules {
            if let Some(keyword) = rule
                .keywords
                .iter()
                .find(|k| checkpoint.contains(k.as_str()))
            {
                return Checkpoint {
                    site: &rule.site,
                    token_field: rule.token.as_deref(),
                    leaves: rule.completes_on_leaving.then_some(keyword.as_str()),
                };
            }
        }
        Checkpoint {
            site: &self.default.site,
            token_field: self.default.token.as_deref(),
            leaves: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::raw::RawConfig;

    #[test]
    fn table_parses_and_names_known_fields() {
        let table = Table::load().unwrap();
        let raw: RawConfig = serde_json::from_str(
            r#"{"task_id":1,"start_url":"","intent":"","eval":{"eval_types":[]}}"#,
        )
        .unwrap();
        for field in table
            .rules
            .iter()
            .map(|r| r.token.as_deref())
            .chain([table.default.token.as_deref()])
            .flatten()
        {
            assert!(raw.token_field(field).is_some(), "unknown field {field}");
        }
        for rule in &table.rules {
            assert!(
                rule.keywords.iter().all(|k| !k.trim().is_empty()),
                "an empty keyword would match every checkpoint"
            );
            // A hop completed by leaving a site is checked on the next site's URL,
            // so tokens of its own would have nothing to apply to.
            assert!(!(rule.completes_on_leaving && rule.token.is_some()));
        }
    }

    /// MMInA's rules: `kiwix` is token-free and completes on leaving, `momondo` needs
    /// the flight code, `7770` the shop keyword, every other checkpoint the city.
    #[test]
    fn checkpoints_follow_mmina_rules() {
        let table = Table::load().unwrap();
        let kiwix = table.lookup("kiwix");
        assert_eq!((kiwix.token_field, kiwix.leaves), (None, Some("kiwix")));
        assert_eq!(table.lookup("momondo").token_field, Some("flight"));
        assert_eq!(table.lookup("7770").token_field, Some("shop"));
        // Not aliases: MMInA's loop gives these the city rule.
        for other in [
            "wiki",
            "wikipedia",
            "flight",
            "shop",
            "shopping",
            "onestopmarket",
            "event",
            "hotel",
            "car",
            "food",
            "travel",
            "exchange",
            "youtube",
            "twitter",
        ] {
            let c = table.lookup(other);
            assert_eq!((c.token_field, c.leaves), (Some("city"), None), "{other}");
        }
    }
}
