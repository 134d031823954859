//! `hopbench bench-memory [--records N] [--k K] [--runs R]`: times the choice of memory
//! records on a generated pool and prints the figures. It asserts nothing: a timed
//! test would fail on a loaded machine, while a figure is read by a person.

use super::args::{Args, Item};
use super::{CliError, EXIT_OK};
use hopbench::agent::FinishCause;
use hopbench::memory::{
    select, MemoryPolicy, MemoryQuery, MemoryRecord, MemorySettings, MemoryStep, MemoryVerdict,
};
use std::ffi::OsString;
use std::io::Write;
use std::time::{Duration, Instant};

const NAME: &str = "bench-memory";

const WORDS: &[&str] = &[
    "find",
    "hotel",
    "flight",
    "cheapest",
    "rating",
    "recipe",
    "video",
    "event",
    "city",
    "tokyo",
    "paris",
    "london",
    "seoul",
    "sydney",
    "rome",
    "bangkok",
    "price",
    "colour",
    "book",
    "open",
    "page",
    "search",
    "results",
    "list",
    "best",
    "guest",
    "review",
    "time",
    "cart",
    "shop",
    "product",
    "size",
    "brand",
    "tower",
    "museum",
    "ticket",
    "concert",
    "weekend",
    "budget",
    "currency",
    "convert",
    "euro",
    "pound",
    "won",
    "baht",
    "dollar",
    "restaurant",
    "food",
    "guide",
    "travel",
    "car",
    "rental",
    "manual",
    "automatic",
    "suv",
    "wikipedia",
    "article",
    "height",
    "population",
    "river",
    "bridge",
    "airline",
    "tail",
];
const SITES: &[&str] = &[
    "127.0.0.1:8600",
    "127.0.0.1:8601",
    "127.0.0.1:8602",
    "127.0.0.1:8603",
    "127.0.0.1:8604",
    "127.0.0.1:8605",
    "127.0.0.1:8606",
    "127.0.0.1:8607",
    "127.0.0.1:8608",
    "127.0.0.1:8609",
    "127.0.0.1:8610",
];

struct Settings {
    records: usize,
    k: u32,
    runs: usize,
}

pub(super) fn run(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    let args = parse(args)?;
    let mut rng = Lcg(0x5eed);
    let pool: Vec<MemoryRecord> = (0..args.records).map(|i| record(i, &mut rng)).collect();
    let query = MemoryQuery {
        task_id: "bench/query".into(),
        subset: "bench".into(),
        intent: intent(&mut rng, 45),
        sites: vec![SITES[3].into(), SITES[5].into()],
    };
    let jsonl: String = pool
        .iter()
        .filter_map(|r| serde_json::to_string(r).ok())
        .map(|line| line + "\n")
        .collect();

    let mut chosen = 0;
    let similar = time(args.runs, || {
        let settings = MemorySettings {
            k: args.k,
            policy: MemoryPolicy::Similar,
        };
        chosen = select(&pool, &query, settings).len();
    });
    let recent = time(args.runs, || {
        let settings = MemorySettings {
            k: args.k,
            policy: MemoryPolicy::Recent,
        };
        std::hint::black_box(select(&pool, &query, settings).len());
    });
    let mut parsed = 0;
    let parse = time(args.runs.min(5), || {
        parsed = MemoryRecord::parse_pool(&jsonl).map_or(0, |p| p.len());
    });

    writeln!(
        out,
        "memory selection over {} generated records (intents of 25-60 words, 1-3 sites, \
         12 steps each), k = {}, {} runs each, native {} build",
        args.records,
        args.k,
        args.runs,
        if cfg!(debug_assertions) {
            "debug (slow: use --release)"
        } else {
            "release"
        }
    )?;
    writeln!(
        out,
        "  similar (scan the pool + rank): median {} CPU, {} wall (max {}); {chosen} chosen",
        cpu(similar.2),
        ms(similar.0),
        ms(similar.1)
    )?;
    writeln!(
        out,
        "  recent:                         median {} CPU, {} wall (max {})",
        cpu(recent.2),
        ms(recent.0),
        ms(recent.1)
    )?;
    writeln!(
        out,
        "  reading the pool ({:.1} MB of JSON lines, {parsed} records, once per run start, \
         before selection): median {} CPU, {} wall",
        jsonl.len() as f64 / 1e6,
        cpu(parse.2),
        ms(parse.0)
    )?;
    Ok(EXIT_OK)
}

/// Median wall time, maximum wall time and median CPU time of this thread over
/// `runs` calls of `f`. The CPU time is what the work costs; on a machine shared with
/// other jobs the wall time also counts the waits for a core.
fn time(runs: usize, mut f: impl FnMut()) -> (Duration, Duration, Option<Duration>) {
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for _ in 0..runs.max(1) {
        let (start, start_cpu) = (Instant::now(), thread_cpu_time());
        f();
        wall.push(start.elapsed());
        if let (Some(a), Some(b)) = (start_cpu, thread_cpu_time()) {
            cpu.push(b.saturating_sub(a));
        }
    }
    wall.sort();
    cpu.sort();
    (
        wall[wall.len() / 2],
        wall[wall.len() - 1],
        cpu.get(cpu.len() / 2).copied(),
    )
}

/// None where the platform has no per-thread CPU clock: the figure then reads "n/a".
fn thread_cpu_time() -> Option<Duration> {
    cpu_time::ThreadTime::try_now()
        .ok()
        .map(|t| t.as_duration())
}

fn cpu(d: Option<Duration>) -> String {
    d.map_or_else(|| "n/a".to_string(), ms)
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// A small deterministic generator: the same pool on every machine.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % below as u64) as usize
    }
}

fn intent(rng: &mut Lcg, words: usize) -> String {
    (0..words)
        .map(|_| WORDS[rng.next(WORDS.len())])
        .collect::<Vec<_>>()
        .join(" ")
}

fn record(i: usize, rng: &mut Lcg) -> MemoryRecord {
    let words = 25 + rng.next(36);
    let sites: Vec<String> = (0..1 + rng.next(3))
        .map(|_| SITES[rng.next(SITES.len())].to_string())
        .collect();
    let steps = (0..12)
        .map(|s| MemoryStep {
            action: Some(format!("click {{link 'Result {s}'}}")),
            site: sites.first().cloned(),
        })
        .collect();
    MemoryRecord {
        task_id: format!("bench/{i}"),
        subset: "bench".into(),
        intent: intent(rng, words),
        sites,
        steps,
        hops_total: 2,
        hop_steps: vec![3],
        verdict: MemoryVerdict::Fail,
        ended: FinishCause::EarlyStop,
        by_person: false,
    }
}

fn parse(args: &[OsString]) -> Result<Settings, CliError> {
    let mut parsed = Settings {
        records: 10_000,
        k: 3,
        runs: 21,
    };
    let mut args = Args::new(NAME, args);
    let at_least_one = "a whole number of at least 1";
    while let Some(item) = args.next()? {
        match item {
            Item::Option(o) if o == "--records" => {
                parsed.records = args.number(&o, at_least_one, |n: &usize| *n >= 1)?;
            }
            Item::Option(o) if o == "--k" => {
                parsed.k = args.number(&o, "a whole number from 1 to 10", |n: &u32| {
                    (1..=10).contains(n)
                })?;
            }
            Item::Option(o) if o == "--runs" => {
                parsed.runs = args.number(&o, at_least_one, |n: &usize| *n >= 1)?;
            }
            Item::Option(o) => return Err(args.unknown(&o, "--records N, --k K, --runs R")),
            Item::Value(v) => {
                return Err(args.usage(format!(
                    "unexpected argument {:?}: bench-memory takes only options",
                    v.to_string_lossy()
                )))
            }
        }
    }
    Ok(parsed)
}
