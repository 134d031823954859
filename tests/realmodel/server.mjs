// A real OpenAI- and Anthropic-compatible model server for the tests: llama.cpp's
// llama-server with SmolLM2-135M-Instruct, as installed by tests/realmodel/install.mjs
// (see llama.mjs). Tests never build: without the install they skip, saying why.
//
//   const found = findModelServer();            // { ok, server, model } | { ok: false, reason }
//   const llm = await startModelServer({ ctx: 1024, alias: 'smollm2' });
//   await fetch(`${llm.baseUrl}/v1/chat/completions`, ...);
//   await llm.stop();                            // kills exactly that pid, waits for it
//
// Each server listens on 127.0.0.1 only, on a free port below the ephemeral range
// (tests/e2e/free-ports.mjs).

import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { freePortBase } from '../e2e/free-ports.mjs';
import { findModelServer } from './llama.mjs';

export { findModelServer, MODEL_PATH, SERVER_PATH } from './llama.mjs';

/** The model name the server answers to unless `alias` says otherwise. */
export const DEFAULT_ALIAS = 'smollm2-135m-instruct';

/**
 * @typedef {{
 *   baseUrl: string, port: number, pid: number, alias: string, args: string[],
 *   output: () => string, stop: () => Promise<void>,
 * }} ModelServer
 */

/**
 * Starts llama-server and resolves once `/health` answers `{"status":"ok"}` (the model
 * is loaded). Throws with the server's output tail if it exits or is not ready within
 * `timeoutMs`; a port taken between the check and the bind is retried on another.
 * @param {{
 *   ctx?: number,         // -c: the context in tokens (per request)
 *   alias?: string,       // --alias: the model name in requests and answers
 *   maxTokens?: number,   // -n: default output cap; a request's max_tokens overrides it
 *   parallel?: number,    // -np: slots (requests served at once); each gets the whole ctx here
 *   threads?: number,     // -t
 *   extraArgs?: string[], // anything else, passed last
 *   timeoutMs?: number,
 * }} [options]
 * @returns {Promise<ModelServer>}
 */
export async function startModelServer({
  ctx = 2048, alias = DEFAULT_ALIAS, maxTokens, parallel = 1, threads, extraArgs = [], timeoutMs = 120_000,
} = {}) {
  const found = findModelServer();
  if (!found.ok) throw new Error(`realmodel: ${found.reason}`);
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePortBase(1);
    const args = [
      '-m', found.model, '--host', '127.0.0.1', '--port', String(port), '--alias', alias,
      // With -np given, -c is the KV cache split between the slots (no unified cache):
      // ctx × slots keeps `ctx` for each request. (Without -np the server picks 4 slots
      // sharing one unified cache of -c tokens.)
      '-c', String(ctx * parallel), '-np', String(parallel),
      ...(maxTokens === undefined ? [] : ['-n', String(maxTokens)]),
      ...(threads === undefined ? [] : ['-t', String(threads)]),
      ...extraArgs,
    ];
    try {
      return await launch(found.server, args, { port, alias, timeoutMs });
    } catch (error) {
      const message = /** @type {Error} */ (error).message;
      if (attempt < 3 && /bind|address already in use/i.test(message)) continue;
      throw error;
    }
  }
}

/**
 * @param {string} server
 * @param {string[]} args
 * @param {{ port: number, alias: string, timeoutMs: number }} options
 * @returns {Promise<ModelServer>}
 */
async function launch(server, args, { port, alias, timeoutMs }) {
  const child = spawn(server, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  /** @param {Buffer} chunk */
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  /** @type {Promise<void>} */
  const exited = new Promise((done) => {
    child.once('exit', () => done());
    child.once('error', () => done());
  });
  // If the test process ends without stop() (a crash, a forgotten stop), the server
  // must not outlive it.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  const running = () => child.exitCode === null && child.signalCode === null && child.pid !== undefined;
  const stop = async () => {
    process.removeListener('exit', reap);
    if (running()) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const tail = () => output.trim().split('\n').slice(-25).join('\n');
  const command = `${server} ${args.join(' ')}`;
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  /** @type {string} */ let last;
  for (;;) {
    if (!running()) {
      await stop();
      throw new Error(`llama-server exited (code ${child.exitCode}, signal ${child.signalCode}) before /health said ok: ${command}\n--- its output (tail):\n${tail()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) });
      const body = await response.text();
      if (response.ok && /"status"\s*:\s*"ok"/.test(body)) break;
      last = `HTTP ${response.status} ${body}`;
    } catch (error) {
      last = /** @type {Error} */ (error).message;
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`llama-server did not become ready within ${timeoutMs} ms (last /health: ${last}): ${command}\n--- its output (tail):\n${tail()}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    baseUrl,
    port,
    pid: /** @type {number} */ (child.pid),
    alias,
    args,
    output: () => output,
    stop,
  };
}

/**
 * `describe(name, options, body)` when the server is installed; otherwise the reason is
 * printed ("realmodel: skipped: ...") and a single skipped test of that name stands for
 * the suite, so node's totals count it as skipped (a skipped describe counts as nothing).
 * @param {string} name
 * @param {import('node:test').TestOptions} options
 * @param {() => void} body
 */
export function describeRealModel(name, options, body) {
  const found = findModelServer();
  if (found.ok) return describe(name, options, body);
  const reason = `realmodel: skipped: ${found.reason}`;
  console.log(reason);
  return test(name, { skip: reason });
}
