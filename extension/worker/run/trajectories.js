// Trajectories in IndexedDB `hopbench`: `runs` (one summary per run), `steps` (one
// record per (runId, step)) and `media` (observation images and screenshots as blobs).
//
// IndexedDB rather than the store (store/): it holds blobs, has no 10 MB quota and keeps
// runs across browser restarts. Steps are `put` on the key [runId, step], so a step
// the worker records again after a restart replaces itself: each step exists once.

import { base64ToBytes, blobToDataUrl } from '../observe/bytes.js';
import { DB_VERSION, upgradeStores } from './trajectories-upgrade.js';

/**
 * @typedef {import('../core/types.js').Run} Run
 * @typedef {import('../core/types.js').Step} Step
 * @typedef {import('../core/types.js').MediaRow} MediaRow
 * @typedef {import('../core/types.js').MediaItem} MediaItem
 * @typedef {import('../core/types.js').MemoryRow} MemoryRow
 */

const DB_NAME = 'hopbench';
const RUNS = 'runs';
const STEPS = 'steps';
const MEDIA = 'media';
const MEMORY = 'memory';

/**
 * The open connection. A cache only: a stopped worker loses it and the next call
 * opens the database again.
 * @type {Promise<IDBDatabase> | undefined}
 */
let connection;

function database() {
  connection ??= openDatabase().catch((error) => {
    connection = undefined; // Let the next call try again.
    throw error;
  });
  return connection;
}

/** @returns {Promise<IDBDatabase>} */
function openDatabase() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = (event) =>
      upgradeStores(request.result, versionChange(request.transaction), event.oldVersion, {
        runs: RUNS,
        steps: STEPS,
        media: MEDIA,
        memory: MEMORY,
      });
    request.onsuccess = () => {
      const db = request.result;
      // Another context upgrading the schema: let it, and reopen on the next call.
      db.onversionchange = () => {
        db.close();
        connection = undefined;
      };
      resolve(db);
    };
    request.onerror = () =>
      reject(new Error(`cannot open IndexedDB "${DB_NAME}": ${request.error?.message ?? 'unknown error'}`));
    request.onblocked = () =>
      reject(new Error(`IndexedDB "${DB_NAME}" is held open by an older version: close other hopbench pages and retry`));
  });
}


/**
 * The versionchange transaction, which IndexedDB always gives `onupgradeneeded`.
 * @param {IDBTransaction | null} tx
 * @returns {IDBTransaction}
 */
function versionChange(tx) {
  if (!tx) throw new Error('IndexedDB gave no versionchange transaction to upgrade in');
  return tx;
}

/**
 * @template T
 * @param {IDBRequest<T>} request
 * @returns {Promise<T>}
 */
const done = (request) =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/**
 * Runs `fn(stores)` in one transaction and resolves with its result once the
 * transaction has committed (not merely when the last request succeeded), so a caller
 * that moves on knows the data is on disk. `fn` may await IndexedDB requests only.
 * @template T
 * @param {string[]} names
 * @param {IDBTransactionMode} mode
 * @param {(stores: Record<string, IDBObjectStore>) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function transaction(names, mode, fn) {
  const db = await database();
  const tx = db.transaction(names, mode, { durability: 'strict' });
  /** @type {Promise<void>} */
  const committed = new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
  });
  const stores = Object.fromEntries(names.map((name) => [name, tx.objectStore(name)]));
  /** @type {T} */
  let result;
  try {
    result = await fn(stores);
  } catch (error) {
    tx.abort();
    committed.catch(() => undefined); // The abort is reported by this throw.
    throw error;
  }
  await committed;
  return result;
}

const stepRange = (/** @type {string} */ runId) => IDBKeyRange.bound([runId, -Infinity], [runId, Infinity]);

// --- runs ------------------------------------------------------------------------------

/** @param {Run} run */
export function putRun(run) {
  return transaction([RUNS], 'readwrite', ({ runs }) => done(runs.put(run)));
}

/**
 * Merges `patch` into the stored run (read and write in one transaction).
 * @param {string} runId
 * @param {Partial<Run>} patch
 * @returns {Promise<Run>}
 */
export function updateRun(runId, patch) {
  return transaction([RUNS], 'readwrite', async ({ runs }) => {
    /** @type {Run | undefined} */
    const run = await done(runs.get(runId));
    if (!run) throw new Error(`no run ${runId} in the trajectory store`);
    const next = { ...run, ...patch };
    await done(runs.put(next));
    return next;
  });
}

/**
 * The second phase of a run's end (run/finish.js): the ending kept on the run becomes
 * the run's own fields, and the `ending` field goes. A run without one is left as it is.
 * @param {string} runId
 */
export function settleEnding(runId) {
  return transaction([RUNS], 'readwrite', async ({ runs }) => {
    /** @type {Run | undefined} */
    const run = await done(runs.get(runId));
    if (!run?.ending) return;
    const { ending, ...rest } = run;
    await done(runs.put({ ...rest, .../** @type {Partial<Run>} */ (ending) }));
  });
}

/**
 * @param {string} runId
 * @returns {Promise<Run | undefined>}
 */
export function getRun(runId) {
  return transaction([RUNS], 'readonly', ({ runs }) => done(runs.get(runId)));
}

/** Every run, newest first. */
/** @returns {Promise<Run[]>} */
export async function listRuns() {
  const all = await transaction([RUNS], 'readonly', ({ runs }) => done(runs.getAll()));
  return all.sort((/** @type {Run} */ a, /** @type {Run} */ b) => b.startedAt - a.startedAt);
}

// --- steps -----------------------------------------------------------------------------

/** Stores one step; a second put of the same (runId, step) replaces the first. */
/**
 * @param {string} runId
 * @param {number} step
 * @param {Record<string, unknown>} record
 */
export function putStep(runId, step, record) {
  return transaction([STEPS], 'readwrite', ({ steps }) => done(steps.put({ ...record, runId, step })));
}

/**
 * Stores a finished step and brings the run's summary up to date in one transaction:
 * `step` (the last recorded), `progress`, and `tokens` summed over the stored steps,
 * so recording the same step twice never counts its tokens twice.
 * @param {string} runId
 * @param {number} step
 * @param {{ progress?: import('../core/types.js').Progress | null } & Record<string, unknown>} record
 * @returns {Promise<Run>}
 */
export function recordStep(runId, step, record) {
  return transaction([RUNS, STEPS], 'readwrite', async ({ runs, steps }) => {
    /** @type {Run | undefined} */
    const run = await done(runs.get(runId));
    if (!run) throw new Error(`no run ${runId} in the trajectory store (deleted while running?)`);
    await done(steps.put({ ...record, runId, step }));
    /** @type {Step[]} */
    const all = await done(steps.getAll(stepRange(runId)));
    const tokens = { input: 0, output: 0, cached_input: 0 };
    for (const s of all) {
      tokens.input += s.tokens?.input ?? 0;
      tokens.output += s.tokens?.output ?? 0;
      tokens.cached_input += s.tokens?.cached_input ?? 0;
    }
    const next = {
      ...run,
      step: Math.max(run.step ?? 0, step),
      progress: record.progress ?? run.progress,
      tokens,
    };
    await done(runs.put(next));
    return next;
  });
}

/** A run's steps in step order. */
/**
 * @param {string} runId
 * @returns {Promise<Step[]>}
 */
export function getSteps(runId) {
  return transaction([STEPS], 'readonly', ({ steps }) => done(steps.getAll(stepRange(runId))));
}

// --- media -----------------------------------------------------------------------------

/** The key of one picture of one step of one run (the scheme: run/media.js). */
export const mediaId = (/** @type {string} */ runId, /** @type {number} */ step, /** @type {string} */ name) => `${runId}/${step}/${name}`;


/**
 * @param {MediaItem[]} items
 * @returns {MediaRow[]}
 */
const asRows = (items) =>
  items.map(({ base64, ...meta }) => ({
    ...meta,
    blob: new Blob([base64ToBytes(base64)], { type: meta.mime }),
  }));

/** Stores pictures as blobs: `items` = `[{id, runId, step, kind, mime, base64}]`. */
/** @param {MediaItem[]} items */
export function putMedia(items) {
  if (items.length === 0) return Promise.resolve();
  const rows = asRows(items);
  return transaction([MEDIA], 'readwrite', async ({ media }) => {
    await Promise.all(rows.map((row) => done(media.put(row))));
  });
}

/**
 * Replaces the pictures of one step with `items` in one transaction: an observation
 * repeated after a restart leaves exactly its own pictures, none of the first try's.
 */
/**
 * @param {string} runId
 * @param {number} step
 * @param {MediaItem[]} items
 */
export function putStepMedia(runId, step, items) {
  const rows = asRows(items);
  const prefix = mediaId(runId, step, '');
  return transaction([MEDIA], 'readwrite', async ({ media }) => {
    const keys = await done(media.index('runId').getAllKeys(runId));
    const stale = keys.filter((key) => typeof key === 'string' && key.startsWith(prefix));
    await Promise.all(stale.map((key) => done(media.delete(key))));
    await Promise.all(rows.map((row) => done(media.put(row))));
  });
}

/**
 * @param {string} runId
 * @returns {Promise<MediaRow[]>}
 */
export function getMedia(runId) {
  return transaction([MEDIA], 'readonly', ({ media }) => done(media.index('runId').getAll(runId)));
}

/** The media of these ids as data URLs: `{<id>: dataUrl}` (unknown ids are left out). */
/**
 * @param {string[]} ids
 * @returns {Promise<Record<string, string>>}
 */
export async function mediaDataUrls(ids) {
  const items = await transaction([MEDIA], 'readonly', ({ media }) => Promise.all(ids.map((id) => done(media.get(id)))));
  /** @type {Record<string, string>} */
  const out = {};
  for (const item of /** @type {(MediaRow | undefined)[]} */ (items)) if (item) out[item.id] = await blobToDataUrl(item.blob);
  return out;
}

// --- procedural memory -----------------------------------------------------------------

/** Keeps a finished run's memory record (a put: finishing twice keeps one). */
/**
 * @param {string} runId
 * @param {number} finishedAt
 * @param {unknown} record
 */
export function putMemory(runId, finishedAt, record) {
  return transaction([MEMORY], 'readwrite', ({ memory }) => done(memory.put({ runId, finishedAt, record })));
}

/** Every memory record, oldest run first: the order the core's `recent` policy reads. */
/** @returns {Promise<unknown[]>} */
export async function listMemory() {
  /** @type {MemoryRow[]} */
  const rows = await transaction([MEMORY], 'readonly', ({ memory }) => done(memory.getAll()));
  return rows.sort((a, b) => a.finishedAt - b.finishedAt).map((row) => row.record);
}

// --- whole runs ------------------------------------------------------------------------

/**
 * Removes the run, its steps, its media and its memory record in one transaction:
 * all or nothing. A deleted run is forgotten by memory too.
 */
/** @param {string} runId */
export function deleteRunData(runId) {
  return transaction([RUNS, STEPS, MEDIA, MEMORY], 'readwrite', async ({ runs, steps, media, memory }) => {
    const mediaKeys = await done(media.index('runId').getAllKeys(runId));
    await Promise.all([
      done(runs.delete(runId)),
      done(steps.delete(stepRange(runId))),
      ...mediaKeys.map((key) => done(media.delete(key))),
      done(memory.delete(runId)),
    ]);
  });
}

/**
 * One JSON-ready object: the run (its summary, task and settings, which never hold
 * the API key), its steps and its media as data URLs keyed by media id.
 */
/** @param {string} runId */
export async function exportRunData(runId) {
  const run = await getRun(runId);
  if (!run) throw new Error(`no run ${runId}: it was deleted, or never recorded`);
  const [steps, media] = await Promise.all([getSteps(runId), getMedia(runId)]);
  /** @type {Record<string, Record<string, unknown>>} */
  const mediaOut = {};
  for (const item of media) {
    const { blob, ...meta } = item;
    mediaOut[item.id] = { ...meta, dataUrl: await blobToDataUrl(blob) };
  }
  const { task, settings, ...summary } = run;
  return {
    format: 'hopbench-trajectory',
    // 2: media keyed per run and step, string references (`{lost, element}` for a
    // picture version 1 lost), and `page_screenshot`.
    version: 2,
    exportedAt: new Date().toISOString(),
    run: summary,
    task,
    settings,
    steps,
    media: mediaOut,
  };
}

/**
 * The summary a run starts with, the same for an agent's run and a person's: nothing
 * done yet, no verdict, the clock started now. `task` is the task as kept with the
 * run (with its file name and text); `fields` adds what differs (id, provider,
 * session, settings, ...).
 * @param {{ task: import('../core/types.js').RunTask, progress: import('../core/types.js').Progress, id: string }
 *   & Record<string, unknown>} fields
 * @returns {Run}
 */
export function newRunSummary({ task, progress, ...fields }) {
  return {
    taskId: task.id,
    intent: task.intent,
    status: 'running',
    step: 0,
    progress,
    verdict: null,
    error: null,
    cause: null,
    reason: null,
    answer: null,
    startedAt: Date.now(),
    finishedAt: null,
    tokens: { input: 0, output: 0, cached_input: 0 },
    task,
    ...fields,
  };
}
