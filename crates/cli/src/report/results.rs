//! One line of a run folder's `results.jsonl`: what the runner recorded for one task.
//! The format is documented in docs/runner.md; this type is its definition.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// How a task ended. `Error` means the run itself broke (start URL unreachable, the
/// browser or the model failed for good, the per-task timeout): it still counts as a
/// task that did not pass, with the hops it completed before breaking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    #[serde(rename = "PASS")]
    Pass,
    #[serde(rename = "FAIL")]
    Fail,
    #[serde(rename = "ERROR")]
    Error,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::Error => "ERROR",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why an ERROR happened, as far as running the task again goes (docs/runner.md,
/// "Crashes, retries and resuming").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The harness broke, not the agent: the browser or the extension's worker died,
    /// the sandbox stopped, the model endpoint was unreachable or kept failing after
    /// its own tries, the per-task timeout. Running the task again may well succeed.
    Infrastructure,
    /// The run could not go on for a reason a retry would meet again: the task file,
    /// the settings (a refused key, an unknown model), an unreachable start URL.
    Run,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Infrastructure => "infrastructure",
            ErrorKind::Run => "run",
        }
    }
}

/// Model tokens over the whole task (0 and 0 for the replay agent).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    /// Every prompt token sent, the cached part included.
    pub input: u64,
    pub output: u64,
    /// The part of `input` the provider served from its prompt cache, which it bills
    /// at a lower price. Lines of older runners have none: 0.
    #[serde(default)]
    pub cached_input: u64,
}

impl Tokens {
    /// The share of `input` served from the cache; `None` when nothing was sent (a
    /// dash, not 0 %).
    pub fn cached_share(&self) -> Option<f64> {
        (self.input > 0).then(|| self.cached_input as f64 / self.input as f64)
    }
}

impl std::ops::AddAssign for Tokens {
    fn add_assign(&mut self, other: Tokens) {
        self.input += other.input;
        self.output += other.output;
        self.cached_input += other.cached_input;
    }
}

/// One task's result (one attempt at it). Fields the runner always writes; `answer`,
/// `answer_score`, `error`, `reason` and `error_kind` may be left out by other writers
/// and then read as null, `attempt` as 1.
/// Unknown fields are ignored so that a newer runner's lines still load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultLine {
    /// The task's id as the importer gives it (`mmina/normal/3`, `demo/tower`).
    pub id: String,
    /// Hops the task defines (N >= 1).
    pub hops_total: usize,
    /// Hops completed, in order (0..=N).
    pub hops_completed: usize,
    /// For each of the N hops, the step at which it completed, or null. Completed hops
    /// come first (hops complete strictly in order).
    pub hop_steps: Vec<Option<u32>>,
    pub verdict: Verdict,
    /// The agent's final answer (`stop [answer]`), if it gave one.
    #[serde(default)]
    pub answer: Option<String>,
    /// How the answer scored against the task's final-answer check, in 0..=1 (1 =
    /// passed); null when the task has no check or no answer was given.
    #[serde(default)]
    pub answer_score: Option<f64>,
    /// Agent steps taken.
    pub steps: u32,
    pub tokens: Tokens,
    /// Wall time of the task, start to finish, in milliseconds.
    pub time_ms: u64,
    /// What broke the run; present exactly when `verdict` is `ERROR`.
    #[serde(default)]
    pub error: Option<String>,
    /// Why the run ended, in a word: one of the agent's finish causes (`answered`,
    /// `early_stop`, `context_overflow`, ...) or the runner's own (`timeout`,
    /// `browser_died`, ...). A word this version does not know is kept as it is, so a
    /// newer runner's lines still load; older lines have none.
    #[serde(default)]
    pub end: Option<String>,
    /// Why the run ended, in a sentence: the run's own (the early-stop rule and its
    /// last failure, the failed call, the answer), else the verdict's reason.
    #[serde(default)]
    pub reason: Option<String>,
    /// Which attempt at the task this line records, from 1. Lines of older runners
    /// have none and are first attempts.
    #[serde(default = "first_attempt")]
    pub attempt: u32,
    /// For an ERROR, whether a retry may help (`infrastructure`) or not (`run`); null
    /// for PASS and FAIL, and for the ERRORs of older runners, which did not say.
    #[serde(default)]
    pub error_kind: Option<ErrorKind>,
}

fn first_attempt() -> u32 {
    1
}

impl ResultLine {
    pub fn passed(&self) -> bool {
        self.verdict == Verdict::Pass
    }

    /// The outcome a person reads for this line: its verdict, except that a run someone
    /// stopped (an ERROR whose `end` is `stopped`) says STOPPED, as the extension's pages
    /// do. It is still an ERROR in `results.jsonl` and counts as not passed in every rate.
    pub fn shown_verdict(&self) -> &'static str {
        if self.verdict == Verdict::Error && self.end.as_deref().map(str::trim) == Some("stopped") {
            "STOPPED"
        } else {
            self.verdict.as_str()
        }
    }

    pub fn ending(&self) -> Ending<'_> {
        let reason = present(&self.reason);
        let error = present(&self.error)
            .filter(|error| !reason.is_some_and(|reason| reason.contains(error.trim())));
        Ending {
            end: present(&self.end).map(|end| end.trim().replace('_', " ")),
            reason,
            error,
        }
    }

    /// The checks that serde cannot express; a message for the person fixing the line.
    pub fn check(&self) -> Result<(), String> {
        if self.id.trim().is_empty() {
            return Err("`id` is empty".into());
        }
        if self.hops_total == 0 {
            return Err("`hops_total` is 0; a task has at least one hop".into());
        }
        if self.hop_steps.len() != self.hops_total {
            return Err(format!(
                "`hop_steps` has {} entries but `hops_total` is {}",
                self.hop_steps.len(),
                self.hops_total
            ));
        }
        let done = self.hop_steps.iter().take_while(|s| s.is_some()).count();
        if self.hop_steps[done..].iter().any(Option::is_some) {
            return Err(
                "`hop_steps`: a hop completed after one that did not (hops complete in order)"
                    .into(),
            );
        }
        if done != self.hops_completed {
            return Err(format!(
                "`hops_completed` is {} but `hop_steps` records {done} completed hops",
                self.hops_completed
            ));
        }
        if self.hop_steps[..done].windows(2).any(|w| w[1] < w[0]) {
            return Err("`hop_steps` must not decrease (hops complete in order)".into());
        }
        if self.verdict == Verdict::Pass && self.hops_completed < self.hops_total {
            return Err(format!(
                "verdict PASS with only {} of {} hops completed",
                self.hops_completed, self.hops_total
            ));
        }
        let has_error = self.error.as_deref().is_some_and(|e| !e.trim().is_empty());
        if (self.verdict == Verdict::Error) != has_error {
            return Err("`error` must be set exactly when `verdict` is ERROR".into());
        }
        if self.attempt == 0 {
            return Err("`attempt` is 0; attempts count from 1".into());
        }
        if self.error_kind.is_some() && self.verdict != Verdict::Error {
            return Err(format!(
                "`error_kind` is set but the verdict is {}; only an ERROR has a kind",
                self.verdict
            ));
        }
        if self.tokens.cached_input > self.tokens.input {
            return Err(format!(
                "`tokens.cached_input` is {} but `tokens.input` is {}; the cached part is \
                 part of the input",
                self.tokens.cached_input, self.tokens.input
            ));
        }
        if let Some(score) = self.answer_score {
            if !(0.0..=1.0).contains(&score) {
                return Err(format!("`answer_score` {score} is outside 0..1"));
            }
        }
        Ok(())
    }
}

/// Why a run ended, in the three parts the report shows, in this order: the end in
/// words, the run's reason, and the error when it adds something to the reason (an
/// ERROR's error is often the hint of what to change, such as "set the observation
/// mode to text", while its reason quotes the failure).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ending<'a> {
    /// `early stop`, `context overflow`: the `end` word with spaces for underscores.
    pub end: Option<String>,
    pub reason: Option<&'a str>,
    pub error: Option<&'a str>,
}

/// A blank field says nothing; it is left out rather than shown as a gap.
fn present(field: &Option<String>) -> Option<&str> {
    field.as_deref().filter(|s| !s.trim().is_empty())
}

impl Ending<'_> {
    pub fn is_empty(&self) -> bool {
        self.end.is_none() && self.reason.is_none() && self.error.is_none()
    }
}

/// A result line and where it was read, so notes and errors can point at it.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    pub result: ResultLine,
    pub file: PathBuf,
    /// 1-based line number.
    pub line: usize,
    /// The run folder the file is in (trajectories live under it).
    pub dir: PathBuf,
}

impl Located {
    pub fn place(&self) -> String {
        format!("{}:{}", self.file.display(), self.line)
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ResultsError {
    #[error("{}: cannot read: {message}", file.display())]
    Read { file: PathBuf, message: String },
    #[error("{}:{line}: {message}", file.display())]
    Line {
        file: PathBuf,
        line: usize,
        message: String,
    },
}

/// The name of the results file inside a run folder.
pub const RESULTS_FILE: &str = "results.jsonl";

/// Reads `dir/results.jsonl`. Blank lines are skipped; the first bad line stops the
/// whole read, since a report silently missing a task would misstate every rate.
pub fn read_results(dir: &Path) -> Result<Vec<Located>, ResultsError> {
    let file = dir.join(RESULTS_FILE);
    let text = std::fs::read_to_string(&file).map_err(|e| ResultsError::Read {
        file: file.clone(),
        message: e.to_string(),
    })?;
    parse_results(&text, &file, dir)
}

/// Parses the text of a results file; `file` and `dir` only label what is read.
pub fn parse_results(text: &str, file: &Path, dir: &Path) -> Result<Vec<Located>, ResultsError> {
    let mut out = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let bad = |message: String| ResultsError::Line {
            file: file.to_path_buf(),
            line,
            message,
        };
        let result = parse_line(raw).map_err(bad)?;
        out.push(Located {
            result,
            file: file.to_path_buf(),
            line,
            dir: dir.to_path_buf(),
        });
    }
    Ok(out)
}

fn parse_line(raw: &str) -> Result<ResultLine, String> {
    let de = &mut serde_json::Deserializer::from_str(raw);
    let result: ResultLine = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        // The line number is ours; serde's "at line 1 column N" would only confuse.
        let message = strip_position(&inner.to_string());
        let column = inner.column();
        // A syntax error has no meaningful field path (serde_path_to_error says `?`);
        // a missing field is reported on the object itself (path `.`).
        let data = inner.classify() == serde_json::error::Category::Data;
        if data && path != "." && !path.is_empty() {
            format!("`{path}`: {message}")
        } else {
            format!("{message} (column {column})")
        }
    })?;
    result.check()?;
    Ok(result)
}

fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}
