// A task site that stops answering mid-batch (its server gone: the sandbox killed, a
// local wiki stopped) makes every task on it end with "start URL unreachable" or
// "page unreachable", which on its own reads as the task's `run` error: a wrong URL. The
// difference is history, so the batch keeps it: an origin where the browser loaded a
// page earlier in this batch (this attempt's own start page included) and that now
// refuses connections is down, not wrong. Rule: docs/runner.md "What counts as
// infrastructure".
//
// The facts are structured: which origins served (the task's start URLs once its run
// recorded a step, the URL of every step's observation), how the run ended (`end`
// `interrupted` with a `run` error: the extension ends a run so when a session page
// did not load), and what node's own connection to the origin meets now (the error's
// `code`). No message is read.

import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lookup as dnsLookup } from 'node:dns';
import { FINISH_CAUSES } from '../extension/core-terms.js';
import { INFRASTRUCTURE, RUN, term } from './attempts.mjs';

/** How the extension's run ends when a session page did not load (agent::FinishCause). */
const INTERRUPTED = term(FINISH_CAUSES, 'interrupted');
/** A probe that gets neither an answer nor a refusal within this long says nothing. */
const PROBE_TIMEOUT_MS = 3_000;
/**
 * The errors of a connection to a server that is not there: nothing listens on the
 * port (refused), or the server dropped the connection unanswered as it went.
 */
const GONE = new Set(['ECONNREFUSED', 'ECONNRESET']);

/**
 * What a probe of an origin found: it answered (any HTTP status counts), it refused
 * the connection (`code`), or it said nothing either way (a timeout, a name node cannot
 * resolve, a certificate node does not trust): `unknown`.
 * @typedef {{ state: 'answered' } | { state: 'gone', code: string } | { state: 'unknown' }} Probe
 */

/**
 * @typedef {{ verdict: string, error: string | null, error_kind: string | null, end: string | null, steps: number }} Line
 * @typedef {{ line: Line, trajectory: import('./extension.mjs').ExtensionData | null }} Done
 */

/**
 * The batch's memory of the origins that served, and the check after each attempt.
 * @param {{ probe?: (origin: string) => Promise<Probe> }} [options] `probe`: how an
 *   origin is asked now (default: an HTTP GET of its root from node)
 */
export function siteWatch({ probe = probeOrigin } = {}) {
  /** @type {Map<string, string>} origin → the task whose run loaded a page there first */
  const served = new Map();
  return {
    /**
     * Notes what the attempt loaded, then, when it ended as an unreachable page (a
     * `run` error of an interrupted run), probes the origins it was on: one that served
     * earlier and now refuses connections makes the line an infrastructure error.
     * @param {{ id: string, startUrls: string[] }} task
     * @param {Done} done
     */
    async check(task, done) {
      const line = done.line;
      const loaded = loadedOrigins(task, done);
      for (const origin of loaded) if (!served.has(origin)) served.set(origin, task.id);
      if (line.verdict !== 'ERROR' || line.error_kind !== RUN || line.end !== INTERRUPTED) return;
      // The start pages' origins, and the one the agent was on when the run ended.
      const suspects = new Set([...task.startUrls.map(originOf), lastOrigin(done)].filter((o) => o !== null));
      for (const origin of suspects) {
        const servedBy = served.get(origin);
        if (servedBy === undefined) continue;
        const now = await probe(origin);
        if (now.state !== 'gone') continue;
        const when = servedBy === task.id ? 'served this task earlier' : `served ${servedBy} earlier in this batch`;
        line.error = `the site ${origin} stopped answering: it ${when}, and now refuses connections (${now.code}); the run reported: ${line.error}`;
        line.error_kind = INFRASTRUCTURE;
        return;
      }
    },
  };
}

/**
 * The origins where this attempt's browser loaded a page: the start URLs once the run
 * recorded a step (its first observation comes after they loaded), and every step's
 * observed URL.
 * @param {{ startUrls: string[] }} task
 * @param {Done} done
 * @returns {string[]}
 */
function loadedOrigins(task, done) {
  const origins = done.line.steps > 0 ? task.startUrls.map(originOf) : [];
  for (const step of stepsOf(done)) origins.push(originOf(step?.observation?.url));
  return /** @type {string[]} */ (origins.filter((o) => o !== null));
}

/** @param {Done} done */
function lastOrigin(done) {
  const steps = stepsOf(done);
  return steps.length > 0 ? originOf(steps[steps.length - 1]?.observation?.url) : null;
}

/**
 * @param {Done} done
 * @returns {any[]}
 */
function stepsOf(done) {
  const steps = done.trajectory?.steps;
  return Array.isArray(steps) ? steps : [];
}

/**
 * `http(s)://host[:port]` of a URL, null for anything else (about:blank, chrome://).
 * @param {unknown} url
 * @returns {string | null}
 */
export function originOf(url) {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null; // Not a URL: nothing loaded there.
  }
}

/**
 * Asks an origin from node, as directly as the browser would: a GET of `/`, any HTTP
 * answer counts. `*.localhost` goes to loopback, as Chromium maps it (node's resolver
 * says ENOTFOUND for those names).
 * @param {string} origin
 * @returns {Promise<Probe>}
 */
export function probeOrigin(origin) {
  const url = new URL('/', origin);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const host = url.hostname.toLowerCase();
  const loopback = host === 'localhost' || host.endsWith('.localhost');
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'GET',
      timeout: PROBE_TIMEOUT_MS,
      lookup: loopback ? (_name, options, callback) => dnsLookup('127.0.0.1', options, callback) : undefined,
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ state: 'answered' });
      req.destroy();
    });
    req.on('timeout', () => {
      resolve({ state: 'unknown' });
      req.destroy();
    });
    req.on('error', (error) => {
      const code = /** @type {NodeJS.ErrnoException} */ (error).code ?? '';
      resolve(GONE.has(code) ? { state: 'gone', code } : { state: 'unknown' });
    });
    req.end();
  });
}
