//! What the runs cost: `hopbench report --prices FILE` reads a table of prices per
//! model, in US dollars per million tokens, and prices each result line's tokens by
//! the model its folder's run.json names. A model the table lacks gets a note, never
//! a price of our own making. The format is in docs/runner.md.

use super::results::{Located, Tokens};
use super::run_config::RunConfig;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One model's prices, US dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    pub input: f64,
    /// Input served from the provider's prompt cache; the table may leave it out,
    /// and then it costs what other input costs.
    pub cached_input: f64,
    pub output: f64,
}

impl Price {
    /// (input − cached) × input + cached × cached_input + output × output, per million.
    pub fn cost(&self, tokens: &Tokens) -> f64 {
        // A line never has more cached than input tokens (results.rs checks it); the
        // saturation only keeps a bad writer from producing a negative cost.
        let uncached = tokens.input.saturating_sub(tokens.cached_input) as f64;
        (uncached * self.input
            + tokens.cached_input as f64 * self.cached_input
            + tokens.output as f64 * self.output)
            / 1_000_000.0
    }
}

/// The price table of `--prices FILE`.
#[derive(Debug, Clone, PartialEq)]
pub struct Prices {
    /// The file as it was given, for notes and the report's header.
    pub file: String,
    models: BTreeMap<String, Price>,
}

const FIELDS: [&str; 3] = ["input", "cached_input", "output"];

impl Prices {
    /// Reads and checks the table; the message names the file and the place in it.
    pub fn read(path: &Path) -> Result<Prices, String> {
        let file = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("{file}: cannot read: {e}"))?;
        Prices::parse(&text, &file)
    }

    /// `file` only labels the messages.
    pub fn parse(text: &str, file: &str) -> Result<Prices, String> {
        let bad = |message: String| format!("{file}: {message}");
        let value: Value = serde_json::from_str(text).map_err(|e| {
            let message = e.to_string();
            // serde's "at line 1 column 5" is kept, said the way our other messages say it.
            let message = message
                .rfind(" at line ")
                .map_or(message.as_str(), |i| &message[..i]);
            bad(format!(
                "not valid JSON: {message} (line {}, column {})",
                e.line(),
                e.column()
            ))
        })?;
        let Value::Object(table) = value else {
            return Err(bad(format!(
                "expected an object of models, {{\"<model>\": {{\"input\": 0.15, \
                 \"output\": 0.6}}}}, found {}",
                kind(&value)
            )));
        };
        let mut models = BTreeMap::new();
        for (model, entry) in &table {
            let price = price_of(model, entry).map_err(bad)?;
            models.insert(model.clone(), price);
        }
        Ok(Prices {
            file: file.to_string(),
            models,
        })
    }

    pub fn get(&self, model: &str) -> Option<&Price> {
        self.models.get(model)
    }
}

fn price_of(model: &str, entry: &Value) -> Result<Price, String> {
    let place = serde_json::to_string(model).unwrap_or_else(|_| format!("{model:?}"));
    let Value::Object(fields) = entry else {
        return Err(format!(
            "{place}: expected an object {{\"input\": ..., \"cached_input\": ..., \
             \"output\": ...}}, found {}",
            kind(entry)
        ));
    };
    if let Some(unknown) = fields.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        // A misspelt `cached_input` would otherwise price the cache as plain input.
        return Err(format!(
            "{place}: unknown field {unknown:?}; the fields are {}",
            FIELDS.join(", ")
        ));
    }
    let number = |name: &str, fields: &Map<String, Value>| -> Result<Option<f64>, String> {
        let Some(value) = fields.get(name) else {
            return Ok(None);
        };
        let n = value.as_f64().ok_or_else(|| {
            format!(
                "{place}.{name}: expected a number (US dollars per million tokens), found {}",
                kind(value)
            )
        })?;
        if n < 0.0 {
            return Err(format!("{place}.{name}: {n} is negative"));
        }
        Ok(Some(n))
    };
    let required = |name: &str| -> Result<f64, String> {
        number(name, fields)?.ok_or_else(|| {
            format!("{place}: missing \"{name}\" (US dollars per million {name} tokens)")
        })
    };
    let input = required("input")?;
    let output = required("output")?;
    let cached_input = number("cached_input", fields)?.unwrap_or(input);
    Ok(Price {
        input,
        cached_input,
        output,
    })
}

fn kind(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "true or false".into(),
        Value::Number(_) => "a number".into(),
        Value::String(s) => format!("the string {}", Value::String(s.clone())),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// The cost of one run folder: every attempt its results.jsonl records, since each
/// was paid for, retried or not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FolderCost {
    pub dir: String,
    /// The model its run.json names (none: the extension's default, or no run.json).
    pub model: Option<String>,
    /// Result lines (attempts) in the folder.
    pub attempts: usize,
    pub tokens: Tokens,
    /// US dollars; null when the tokens could not be priced (a note says why).
    pub cost_usd: Option<f64>,
}

/// The costs the report shows, with a price table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Costs {
    /// The price table's file.
    pub prices: String,
    /// The sum of the folders' costs that could be priced, US dollars.
    pub total_usd: f64,
    /// False when some folder's tokens could not be priced: the total leaves them out.
    pub complete: bool,
    pub folders: Vec<FolderCost>,
}

/// Prices each task of the report by its folder's model.
pub struct Pricing<'a> {
    prices: &'a Prices,
    models: Vec<(PathBuf, Option<String>)>,
}

impl<'a> Pricing<'a> {
    pub fn new(prices: &'a Prices, configs: &[(PathBuf, RunConfig)]) -> Pricing<'a> {
        Pricing {
            prices,
            models: configs
                .iter()
                .map(|(dir, c)| (dir.clone(), c.model.clone()))
                .collect(),
        }
    }

    fn model(&self, dir: &Path) -> Option<&str> {
        self.models
            .iter()
            .find(|(d, _)| d == dir)
            .and_then(|(_, m)| m.as_deref())
    }

    /// The cost of one line in US dollars; `None` when its model has no price. A line
    /// without tokens cost nothing, whatever its model (replay, a run that never
    /// reached the model).
    pub fn line(&self, located: &Located) -> Option<f64> {
        let tokens = &located.result.tokens;
        if tokens.input == 0 && tokens.output == 0 {
            return Some(0.0);
        }
        let price = self.prices.get(self.model(&located.dir)?)?;
        Some(price.cost(tokens))
    }

    /// Each folder's cost (`folders` as read: its lines), and a note for each folder
    /// whose tokens could not be priced.
    pub fn folders(&self, folders: &[(PathBuf, &[Located])], notes: &mut Vec<String>) -> Costs {
        let mut seen: Vec<PathBuf> = Vec::new();
        let mut costs = Costs {
            prices: self.prices.file.clone(),
            total_usd: 0.0,
            complete: true,
            folders: Vec::new(),
        };
        for (dir, lines) in folders {
            // A folder named twice was paid for once.
            let same = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
            if seen.contains(&same) {
                continue;
            }
            seen.push(same);
            let mut tokens = Tokens::default();
            let mut cost = Some(0.0);
            for located in lines.iter() {
                tokens += located.result.tokens;
                cost = cost.zip(self.line(located)).map(|(a, b)| a + b);
            }
            let model = self.model(dir).map(str::to_string);
            match (&cost, &model) {
                (Some(usd), _) => costs.total_usd += usd,
                (None, Some(m)) => notes.push(format!(
                    "no price for model {m:?} in {}: the cost of {} ({} input, {} output \
                     tokens) is left out",
                    self.prices.file,
                    dir.display(),
                    tokens.input,
                    tokens.output
                )),
                (None, None) => notes.push(format!(
                    "{}: run.json names no model, so its tokens ({} input, {} output) \
                     cannot be priced and are left out of the cost",
                    dir.display(),
                    tokens.input,
                    tokens.output
                )),
            }
            costs.complete &= cost.is_some();
            costs.folders.push(FolderCost {
                dir: dir.display().to_string(),
                model,
                attempts: lines.len(),
                tokens,
                cost_usd: cost,
            });
        }
        costs
    }
}

/// `$12.35` from a dollar up; below it three significant digits (`$0.0024`,
/// `$0.000156`), since a task often costs a fraction of a cent and two decimals would
/// show most of them as nothing.
pub fn dollars(usd: f64) -> String {
    if usd.abs() >= 1.0 {
        return format!("${usd:.2}");
    }
    if usd == 0.0 {
        return "$0".to_string();
    }
    let decimals = (2.0 - usd.abs().log10().floor()).max(2.0) as usize;
    let text = format!("{usd:.decimals$}");
    // Trailing zeros of the rounding say nothing, but cents are always shown.
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let fraction = fraction.trim_end_matches('0');
    format!("${whole}.{fraction:0<2}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(input: u64, cached_input: u64, output: u64) -> Tokens {
        Tokens {
            input,
            output,
            cached_input,
        }
    }

    #[test]
    fn the_cached_part_of_the_input_is_priced_at_the_cache_price() {
        let price = Price {
            input: 0.15,
            cached_input: 0.075,
            output: 0.6,
        };
        // (10,000 − 4,000) × 0.15 + 4,000 × 0.075 + 2,000 × 0.6 = 900 + 300 + 1,200
        // = 2,400 per million: $0.0024.
        assert!((price.cost(&tokens(10_000, 4_000, 2_000)) - 0.0024).abs() < 1e-12);
    }

    #[test]
    fn a_table_without_a_cache_price_charges_cached_input_as_input() {
        let p = Prices::parse(r#"{"m": {"input": 2, "output": 8}}"#, "p.json").unwrap();
        assert_eq!(
            p.get("m"),
            Some(&Price {
                input: 2.0,
                cached_input: 2.0,
                output: 8.0
            })
        );
    }

    #[test]
    fn a_bad_table_names_the_file_the_model_and_the_field() {
        let err = |text: &str| Prices::parse(text, "prices.json").unwrap_err();
        assert_eq!(
            err(r#"{"gpt-4o-mini": {"input": "0.15", "output": 0.6}}"#),
            "prices.json: \"gpt-4o-mini\".input: expected a number (US dollars per million \
             tokens), found the string \"0.15\""
        );
        assert_eq!(
            err(r#"{"m": {"input": 1}}"#),
            "prices.json: \"m\": missing \"output\" (US dollars per million output tokens)"
        );
        assert_eq!(
            err(r#"{"m": {"input": 1, "output": 1, "cache_input": 0.5}}"#),
            "prices.json: \"m\": unknown field \"cache_input\"; the fields are input, \
             cached_input, output"
        );
        assert_eq!(
            err(r#"{"m": {"input": 1, "output": -2}}"#),
            "prices.json: \"m\".output: -2 is negative"
        );
        assert_eq!(
            err(r#"{"m": 0.15}"#),
            "prices.json: \"m\": expected an object {\"input\": ..., \"cached_input\": ..., \
             \"output\": ...}, found a number"
        );
        assert!(err("[1]").starts_with("prices.json: expected an object of models"));
        assert_eq!(
            err("{\"m\": {\"input\": 1,}}"),
            "prices.json: not valid JSON: trailing comma (line 1, column 19)"
        );
    }

    #[test]
    fn dollars_keep_the_digits_a_small_cost_needs() {
        assert_eq!(dollars(0.0024), "$0.0024");
        assert_eq!(dollars(0.000156), "$0.000156");
        assert_eq!(dollars(0.00105), "$0.00105");
        assert_eq!(dollars(0.004371), "$0.00437");
        assert_eq!(dollars(0.5), "$0.50");
        assert_eq!(dollars(0.0), "$0");
        assert_eq!(dollars(12.3), "$12.30");
    }
}
