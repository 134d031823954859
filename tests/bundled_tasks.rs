//! The bundled task suite in `tasks/`: its shape (size, ids, MMInA's spread of hop
//! counts), that every task can be replayed (a reference trajectory ending in `stop`,
//! every URL inside the sandbox), and that hop conditions accept what the sandbox's
//! forms and a hand-typed URL produce while refusing a wrong choice.
//! The proof that each trajectory completes every hop in a real browser is
//! `tests/e2e/suite-replay.test.mjs`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use hopbench::action::{Action, ActionKind};
use hopbench::condition::Condition;
use hopbench::evaluator::HopQueue;
use hopbench::event::Event;
use hopbench::judge::NoJudge;
use hopbench::task::{parse_task, ReferenceStep, Task};

/// The sandbox's default ports (`docs/sandbox.md`): the suite is written for them.
const FIRST_PORT: u16 = 8600;
const LAST_PORT: u16 = 8610;

fn tasks_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tasks")
}

/// Every `tasks/*.json` as (file stem, task), sorted by file name.
fn suite() -> Vec<(String, Task)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(tasks_dir())
        .expect("tasks/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            let task = parse_task(&text)
                .unwrap_or_else(|e| panic!("{} is not a valid task: {e}", path.display()));
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            (stem, task)
        })
        .collect()
}

fn task(id: &str) -> Task {
    suite()
        .into_iter()
        .find(|(_, t)| t.id == id)
        .unwrap_or_else(|| panic!("no bundled task {id}"))
        .1
}

/// The port of a URL on the sandbox host, if it is one of the sandbox's.
fn sandbox_port(url: &str) -> Option<u16> {
    let rest = url.strip_prefix("http://127.0.0.1:")?;
    let end = rest.find('/').unwrap_or(rest.len());
    let port: u16 = rest[..end].parse().ok()?;
    (FIRST_PORT..=LAST_PORT).contains(&port).then_some(port)
}

#[test]
fn the_suite_has_at_least_40_tasks_with_ids_equal_to_file_names() {
    let suite = suite();
    assert!(suite.len() >= 40, "only {} tasks in tasks/", suite.len());
    let mut seen = HashSet::new();
    for (stem, task) in &suite {
        assert_eq!(
            &task.id, stem,
            "the id of tasks/{stem}.json must be its file name"
        );
        assert!(
            task.id.starts_with("sb-"),
            "{}: bundled ids start with sb-",
            task.id
        );
        assert!(seen.insert(task.id.clone()), "duplicate id {}", task.id);
    }
}

#[test]
fn hop_counts_spread_from_1_to_10_like_mmina() {
    let mut per_count: BTreeMap<usize, usize> = BTreeMap::new();
    for (_, task) in suite() {
        let n = task.hops.len();
        assert!(
            (1..=10).contains(&n),
            "{} has {n} hops; the suite covers 1 to 10",
            task.id
        );
        *per_count.entry(n).or_default() += 1;
    }
    let in_range =
        |lo: usize, hi: usize| -> usize { per_count.range(lo..=hi).map(|(_, c)| c).sum() };
    // MMInA: 508 one-hop, 176 two-hop, 100 compare (2-4), 180 with 5-7, 86 with 8-10.
    // The minimums keep that shape with a suite of ~45 tasks.
    let spread = [(1, 1, 12), (2, 2, 10), (3, 4, 7), (5, 7, 5), (8, 10, 3)];
    for (lo, hi, min) in spread {
        let have = in_range(lo, hi);
        assert!(
            have >= min,
            "{have} tasks with {lo}-{hi} hops, want at least {min}: {per_count:?}"
        );
    }
    assert!(per_count.contains_key(&10), "no 10-hop task: {per_count:?}");
}

#[test]
fn every_task_has_a_reference_trajectory_ending_in_stop() {
    for (_, task) in suite() {
        let steps: Vec<ReferenceStep> = task
            .reference_trajectory
            .iter()
            .map(|s| {
                ReferenceStep::parse(s).unwrap_or_else(|e| panic!("{}: step {s:?}: {e}", task.id))
            })
            .collect();
        let last = steps
            .last()
            .unwrap_or_else(|| panic!("{} has no reference_trajectory", task.id));
        assert_eq!(
            last.kind(),
            ActionKind::Stop,
            "{}: the trajectory must end in stop",
            task.id
        );
        // One action per hop at least: a shorter trajectory cannot have reached them all.
        assert!(
            steps.len() >= task.hops.len(),
            "{}: fewer steps than hops",
            task.id
        );
    }
}

#[test]
fn start_reference_and_goto_urls_point_into_the_sandbox() {
    for (_, task) in suite() {
        let goto_urls =
            task.reference_trajectory.iter().filter_map(|s| {
                match ReferenceStep::parse(s).unwrap().action(1).unwrap() {
                    Action::Goto { url } => Some(url),
                    _ => None,
                }
            });
        let urls = task
            .start_urls
            .iter()
            .cloned()
            .chain(task.reference_sites.iter().map(|r| r.url.clone()))
            .chain(goto_urls);
        for url in urls {
            assert!(
                sandbox_port(&url).is_some(),
                "{}: {url} is outside the sandbox (http://127.0.0.1:{FIRST_PORT}-{LAST_PORT})",
                task.id
            );
        }
    }
}

/// The suite's convention (docs/task-authoring.md): a question's answer is the last hop,
/// as producing the asked information is a hop in MMInA, and `final_answer` repeats the
/// same check so the verdict's answer score agrees with the hop queue.
#[test]
fn a_required_answer_is_also_the_last_hop() {
    for (_, task) in suite() {
        let Some(final_answer) = &task.final_answer else {
            continue;
        };
        let last = &task.hops.last().unwrap().condition;
        let Condition::Answer(hop) = last else {
            panic!(
                "{}: has a final_answer but its last hop is not an answer",
                task.id
            )
        };
        assert_eq!(
            hop, &final_answer.condition,
            "{}: last hop and final_answer differ",
            task.id
        );
        let stop = task.reference_trajectory.last().unwrap();
        let Action::Stop { answer } = ReferenceStep::parse(stop).unwrap().action(1).unwrap() else {
            unreachable!("checked by every_task_has_a_reference_trajectory_ending_in_stop")
        };
        let check = hop.check(&answer, &mut NoJudge).unwrap();
        assert!(
            check.passed,
            "{}: the reference answer {answer:?} fails its own check",
            task.id
        );
    }
}

#[test]
fn opening_the_start_pages_completes_no_hop() {
    for (_, task) in suite() {
        let mut queue = HopQueue::new(&task);
        for (tab, url) in task.start_urls.iter().enumerate() {
            queue
                .consume(&Event::navigation(0, 0, tab as u32, url), &mut NoJudge)
                .unwrap();
        }
        assert_eq!(
            queue.hops_done(),
            0,
            "{}: a start page already completes hop 1",
            task.id
        );
    }
}

/// The suite's pictures-only questions (`docs/sandbox.md`: single-colour products, cars,
/// aircraft tails): the answer is a colour and the intent says only a picture shows it.
#[test]
fn several_tasks_need_a_picture_to_answer() {
    const COLOURS: [&str; 9] = [
        "red", "orange", "yellow", "green", "blue", "purple", "brown", "black", "white",
    ];
    let image_tasks: Vec<String> = suite()
        .into_iter()
        .filter(|(_, t)| {
            let intent = t.intent.to_lowercase();
            let colour_answer = t.final_answer.as_ref().is_some_and(|f| {
                f.condition
                    .must_include
                    .iter()
                    .any(|k| COLOURS.contains(&k.as_str()))
            });
            colour_answer && intent.contains("picture")
        })
        .map(|(_, t)| t.id)
        .collect();
    assert!(
        image_tasks.len() >= 8,
        "only {} picture questions: {image_tasks:?}",
        image_tasks.len()
    );
}

/// Whether hop `index` of task `id` is completed by a navigation to `url`.
fn hop_accepts(id: &str, index: usize, url: &str) -> bool {
    let task = task(id);
    let condition = &task.hops[index].condition;
    condition
        .holds(&Event::navigation(1, 0, 0, url), &mut NoJudge)
        .unwrap()
}

/// Hop conditions: what the forms send and what a person might type both count; a
/// different choice (route, filter, item, name, port) does not.
#[test]
fn hop_conditions_accept_equivalent_urls_and_refuse_wrong_choices() {
    let cases: &[(&str, usize, &str, bool)] = &[
        // Flight search: codes from the form, city names typed by hand, extra parameters.
        ("sb-04-london-paris-flights", 0, "http://127.0.0.1:8602/flights/search?from=LON&to=PAR&date=2027-01-15&passengers=2", true),
        ("sb-04-london-paris-flights", 0, "http://127.0.0.1:8602/flights/search?from=london&to=Paris&date=2027-01-15&passengers=2&sort=price", true),
        ("sb-04-london-paris-flights", 0, "http://127.0.0.1:8602/flights/search?from=PAR&to=LON&date=2027-01-15&passengers=2", false),
        ("sb-04-london-paris-flights", 0, "http://127.0.0.1:8602/flights/search?from=LON&to=PAR&date=2027-01-15&passengers=1", false),
        ("sb-04-london-paris-flights", 0, "http://127.0.0.1:8602/flights/search?from=LON&to=PARIS-X&date=2027-01-15&passengers=2", false),
        ("sb-04-london-paris-flights", 0, "http://127.0.0.1:8603/flights/search?from=LON&to=PAR&date=2027-01-15&passengers=2", false),
        ("sb-37-seoul-sydney-tail-colour", 2, "http://127.0.0.1:8602/flights/search?from=SEL&to=SYD&date=2027-01-20&passengers=1&sort=price", true),
        ("sb-37-seoul-sydney-tail-colour", 2, "http://127.0.0.1:8602/flights/search?from=SEL&to=SYD&date=2027-01-20&passengers=1&sort=duration", false),
        // City slugs and names; a longer word is not the city.
        ("sb-46-new-york-holiday", 6, "http://127.0.0.1:8603/hotels/search?city=new-york&checkin=2026-12-25&amenity=breakfast+included", true),
        ("sb-46-new-york-holiday", 6, "http://127.0.0.1:8603/hotels/search?city=New+York&checkin=2026-12-25&amenity=breakfast%20included&sort=price", true),
        ("sb-46-new-york-holiday", 6, "http://127.0.0.1:8603/hotels/search?city=new-yorkshire&checkin=2026-12-25&amenity=breakfast+included", false),
        ("sb-46-new-york-holiday", 6, "http://127.0.0.1:8603/hotels/search?city=new-york&checkin=2026-12-25&amenity=pool", false),
        ("sb-05-barcelona-pool-hotels", 0, "http://127.0.0.1:8603/hotels/search?city=barcelona&checkin=&checkout=&guests=2&amenity=pool", true),
        ("sb-05-barcelona-pool-hotels", 0, "http://127.0.0.1:8603/hotels/search?city=rome&amenity=pool", false),
        // Items: the right page, in any letter case; not a neighbour.
        ("sb-28-nyc-sfo-book-cheapest", 1, "http://127.0.0.1:8602/flights/pc536?date=2026-12-12&passengers=1", true),
        ("sb-28-nyc-sfo-book-cheapest", 1, "http://127.0.0.1:8602/flights/PC914?date=2026-12-12&passengers=1", false),
        ("sb-16-paris-cheapest-car-colour", 0, "http://127.0.0.1:8604/car/kestrel-mini-auto?city=paris", true),
        ("sb-16-paris-cheapest-car-colour", 0, "http://127.0.0.1:8604/car/kestrel-mini?city=paris", false),
        // Orders: the name and quantity asked for.
        ("sb-40-rome-manual-car", 4, "http://127.0.0.1:8604/car/kestrel-mini/book?city=rome&pickup=2026-12-10&dropoff=2026-12-13&name=Lena+Ortiz", true),
        ("sb-40-rome-manual-car", 4, "http://127.0.0.1:8604/car/kestrel-mini/book?city=rome&pickup=2026-12-10&dropoff=2026-12-13&name=", false),
        ("sb-18-pizza-crawl-tickets", 1, "http://127.0.0.1:8605/events/new-york/brooklyn-pizza-crawl/tickets?qty=2&name=Ana+Lima", true),
        ("sb-18-pizza-crawl-tickets", 1, "http://127.0.0.1:8605/events/new-york/brooklyn-pizza-crawl/tickets?qty=1&name=Ana+Lima", false),
        ("sb-02-red-tshirt-cart", 0, "http://127.0.0.1:8601/cart/add?product=everyday-cotton-t-shirt&color=Red&size=M&qty=1", true),
        ("sb-02-red-tshirt-cart", 0, "http://127.0.0.1:8601/cart/add?product=everyday-cotton-t-shirt&color=navy&size=M&qty=1", false),
        // Amounts: 250 or 250.00, not 2500.
        ("sb-07-euro-to-pound", 0, "http://127.0.0.1:8607/convert?amount=250.00&from=eur&to=gbp", true),
        ("sb-07-euro-to-pound", 0, "http://127.0.0.1:8607/convert?amount=2500&from=EUR&to=GBP", false),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter(|(id, hop, url, want)| hop_accepts(id, *hop, url) != *want)
        .map(|(id, hop, url, want)| {
            let verb = if *want { "refuses" } else { "accepts" };
            format!("{id} hop {} {verb} {url}", hop + 1)
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "hop conditions disagree:\n{}",
        wrong.join("\n")
    );
}
