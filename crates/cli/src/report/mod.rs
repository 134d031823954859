//! `hopbench report`: reads the `results.jsonl` of one or more run folders, merges
//! them, and writes `summary.json`, `report.html` and a viewer page per trajectory.
//! Native only (it reads and writes files); the formats are in docs/runner.md.

pub mod analysis;
pub mod cost;
pub mod html;
pub mod human;
mod merge;
pub mod results;
pub mod run_config;
mod stem;
pub mod summary;
pub mod trajectory;

pub use merge::{merge, Merged};
pub use results::{
    read_results, Ending, ErrorKind, Located, ResultLine, ResultsError, Tokens, Verdict,
};
pub use stem::{attempt_file_stem, task_file_stem};
pub use summary::{Counts, EarlierAttempt, Retries, Source, Summary, Totals};

use cost::{Prices, Pricing};
use html::index::ResultRow;
use run_config::{MemorySetting, RunConfig};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use trajectory::{ImageSource, Trajectory};

/// The folder of trajectory files inside a run folder and inside the output.
pub const TRAJECTORIES: &str = "trajectories";

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(transparent)]
    Results(#[from] ResultsError),
    #[error("the results cannot be aggregated: {0}")]
    Metrics(#[from] hopbench::metrics::MetricsError),
    #[error("{}: cannot write: {message}", path.display())]
    Write { path: PathBuf, message: String },
}

/// What was written, for the command to print.
#[derive(Debug)]
pub struct Written {
    pub summary: Summary,
    pub summary_path: PathBuf,
    pub html_path: PathBuf,
    pub trajectory_pages: usize,
}

/// Reads every folder's results (all of them before writing anything, so a bad line
/// leaves the output untouched), merges them and writes the report into `out`. With
/// `prices`, each task and folder gets its cost.
pub fn write_report(
    dirs: &[PathBuf],
    out: &Path,
    prices: Option<&Prices>,
) -> Result<Written, ReportError> {
    let mut sources = Vec::new();
    let mut all = Vec::new();
    for dir in dirs {
        let lines = read_results(dir)?;
        sources.push(Source {
            results: dir.join(results::RESULTS_FILE).display().to_string(),
            lines: lines.len(),
        });
        all.push(lines);
    }
    let configs: Vec<(PathBuf, RunConfig)> = dirs
        .iter()
        .map(|d| (d.clone(), RunConfig::read(d)))
        .collect();
    let pricing = prices.map(|p| Pricing::new(p, &configs));
    // Costs are over every line of every folder, before merging drops any: each
    // attempt was paid for.
    let mut cost_notes = Vec::new();
    let costs = pricing.as_ref().map(|pricing| {
        let folders: Vec<(PathBuf, &[Located])> = dirs
            .iter()
            .cloned()
            .zip(all.iter().map(Vec::as_slice))
            .collect();
        pricing.folders(&folders, &mut cost_notes)
    });
    let (all, configs, humans) = split_people(all, configs);
    let (main, groups, note) = split_by_memory(all, &configs);
    let merged = merge(main);
    let mut summary = Summary::compute(&merged, sources)?;
    summary.notes.extend(note);
    summary.notes.extend(cost_notes);
    summary.costs = costs;
    summary.analysis = analysis::analyse(&merged, &groups, &configs)?;
    let humans = (!humans.is_empty()).then(|| merge(humans));
    if let Some(humans) = &humans {
        summary.human = Some(human::HumanComparison::compute(
            humans,
            &merged,
            &summary.metrics,
        )?);
    }

    let pages_dir = out.join(TRAJECTORIES);
    create_dir(&pages_dir)?;
    let rows = linked_rows(
        &merged.tasks,
        &pages_dir,
        pricing.as_ref(),
        &mut summary.notes,
    )?;
    // People's sessions get viewer pages too, linked from the human-vs-agent table.
    let mut human_links = BTreeMap::new();
    let human_tasks = humans.as_ref().map_or(&[][..], |h| &h.tasks[..]);
    for row in linked_rows(human_tasks, &pages_dir, None, &mut summary.notes)? {
        if let Some(link) = row.trajectory {
            human_links.insert(row.result.id.clone(), link);
        }
    }
    // Earlier attempts keep their own pages: what a crashed attempt had done is part
    // of the record even though its result does not count.
    let attempts = linked_rows(
        &merged.earlier_attempts,
        &pages_dir,
        pricing.as_ref(),
        &mut summary.notes,
    )?;
    let pages = rows
        .iter()
        .chain(&attempts)
        .filter(|r| r.trajectory.is_some())
        .count()
        + human_links.len();

    let summary_path = out.join("summary.json");
    let json = serde_json::to_string_pretty(&summary).map_err(|e| ReportError::Write {
        path: summary_path.clone(),
        message: e.to_string(),
    })?;
    write_atomic(&summary_path, &(json + "\n"))?;
    let html_path = out.join("report.html");
    write_atomic(
        &html_path,
        &html::report_page(&summary, &rows, &attempts, &human_links),
    )?;
    Ok(Written {
        summary,
        summary_path,
        html_path,
        trajectory_pages: pages,
    })
}

/// People's folders (`run.json` provider `human`) apart from the agents': a person's
/// line must not replace an agent's line of the same task. Given people's folders
/// only, they are the report's results and there is nothing to compare.
#[allow(clippy::type_complexity, reason = "three parallel lists, used once")]
fn split_people(
    all: Vec<Vec<Located>>,
    configs: Vec<(PathBuf, RunConfig)>,
) -> (
    Vec<Vec<Located>>,
    Vec<(PathBuf, RunConfig)>,
    Vec<Vec<Located>>,
) {
    let is_person = |c: &(PathBuf, RunConfig)| c.1.provider.as_deref() == Some("human");
    if configs.iter().all(is_person) {
        return (all, configs, Vec::new());
    }
    let mut agents = (Vec::new(), Vec::new());
    let mut people = Vec::new();
    for (lines, config) in all.into_iter().zip(configs) {
        if is_person(&config) {
            people.push(lines);
        } else {
            agents.0.push(lines);
            agents.1.push(config);
        }
    }
    (agents.0, agents.1, people)
}

/// Folders run with different memory settings are different experiments: merging
/// them would let one setting's line replace another's. Each setting is merged on its
/// own for the by-K table, and the report's other tables show the lowest setting
/// (memory off, when there), which a note says.
fn split_by_memory(
    all: Vec<Vec<Located>>,
    configs: &[(PathBuf, RunConfig)],
) -> (Vec<Vec<Located>>, Vec<analysis::Group>, Option<String>) {
    let mut by_setting: BTreeMap<MemorySetting, Vec<Vec<Located>>> = BTreeMap::new();
    for (lines, (_, config)) in all.into_iter().zip(configs) {
        by_setting.entry(config.memory()).or_default().push(lines);
    }
    let note = (by_setting.len() > 1).then(|| {
        let labels: Vec<String> = by_setting.keys().map(MemorySetting::label).collect();
        format!(
            "the folders hold {} memory settings ({}): the tables show {}, the by-K table \
             compares them all",
            labels.len(),
            labels.join(", "),
            labels.first().cloned().unwrap_or_default()
        )
    });
    let groups: Vec<analysis::Group> = by_setting
        .iter()
        .map(|(memory, lines)| analysis::Group {
            memory: memory.clone(),
            merged: merge(lines.clone()),
        })
        .collect();
    let main = by_setting.into_values().next().unwrap_or_default();
    (main, groups, note)
}

/// The table rows of `list`, each linked to the trajectory page written for it and,
/// with a price table, with its cost.
fn linked_rows<'a>(
    list: &'a [Located],
    pages_dir: &Path,
    pricing: Option<&Pricing<'_>>,
    notes: &mut Vec<String>,
) -> Result<Vec<ResultRow<'a>>, ReportError> {
    list.iter()
        .map(|located| {
            let cost = pricing.and_then(|p| p.line(located));
            Ok(ResultRow {
                result: &located.result,
                trajectory: trajectory_page(located, pages_dir, cost, notes)?,
                cost,
            })
        })
        .collect()
}

/// Writes `pages_dir/<stem>.html` from `<run dir>/trajectories/<stem>.json` when that
/// exists (`<stem>` of the line's attempt), copying its images along if the output is
/// another folder; returns the link for report.html. Problems with one trajectory
/// become notes, not failures.
fn trajectory_page(
    located: &Located,
    pages_dir: &Path,
    cost: Option<f64>,
    notes: &mut Vec<String>,
) -> Result<Option<String>, ReportError> {
    let id = &located.result.id;
    let stem = attempt_file_stem(id, located.result.attempt);
    let source_dir = located.dir.join(TRAJECTORIES);
    let json_path = source_dir.join(format!("{stem}.json"));
    if !json_path.is_file() {
        return Ok(None);
    }
    let parsed = fs::read_to_string(&json_path)
        .map_err(|e| e.to_string())
        .and_then(|text| Trajectory::parse(&text));
    let page = match &parsed {
        Ok(t) => {
            copy_images(t, &source_dir, pages_dir, id, notes);
            html::trajectory_page(&located.result, Ok(t), cost)
        }
        Err(message) => {
            notes.push(format!(
                "the trajectory of {id:?} ({}) could not be read: {message}",
                json_path.display()
            ));
            html::trajectory_page(&located.result, Err(message), cost)
        }
    };
    write_atomic(&pages_dir.join(format!("{stem}.html")), &page)?;
    Ok(Some(format!("{TRAJECTORIES}/{stem}.html")))
}

fn copy_images(t: &Trajectory, from: &Path, to: &Path, id: &str, notes: &mut Vec<String>) {
    let same = match (fs::canonicalize(from), fs::canonicalize(to)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    let mut missing = 0;
    for step in &t.steps {
        let Some(obs) = &step.observation else {
            continue;
        };
        for reference in obs.screenshot.iter().chain(&obs.images) {
            let Some(ImageSource::File(name)) = t.image(reference) else {
                continue;
            };
            let source = from.join(&name);
            let copied = same || fs::copy(&source, to.join(&name)).is_ok();
            if !source.is_file() || !copied {
                missing += 1;
            }
        }
    }
    if missing > 0 {
        notes.push(format!(
            "the trajectory of {id:?}: {missing} image file(s) missing or not copied from {}",
            from.display()
        ));
    }
}

fn create_dir(dir: &Path) -> Result<(), ReportError> {
    fs::create_dir_all(dir).map_err(|e| ReportError::Write {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })
}

/// Write to a temporary file, then rename: an interrupted report never leaves a
/// half-written page in place of the previous one.
fn write_atomic(path: &Path, text: &str) -> Result<(), ReportError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let error = |e: std::io::Error| ReportError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    fs::write(&tmp, text).map_err(error)?;
    fs::rename(&tmp, path).map_err(error)
}
