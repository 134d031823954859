// Starts `hopbench sandbox` (the offline websites the bundled tasks use) as a child
// process, waits until the sites answer, and stops it: the demo's only dependency
// besides the extension.

import { spawn } from 'node:child_process';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * @param {string} bin the native CLI
 * @param {string[]} origins http origins that must answer before the sandbox counts as up
 * @param {(line: string) => void} log
 */
export async function startSandbox(bin, origins, log) {
  const child = spawn(bin, ['sandbox'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let exited = null;
  const exitedPromise = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
    child.once('error', (error) => {
      exited = { error };
      resolve(exited);
    });
  });
  const forward = (stream) =>
    stream.setEncoding('utf8').on('data', (text) => {
      for (const line of text.split('\n').filter(Boolean)) log(`sandbox: ${line}`);
    });
  forward(child.stdout);
  forward(child.stderr);

  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exitedPromise;
    clearTimeout(timer);
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  const waiting = new Set(origins);
  while (waiting.size > 0) {
    if (exited) {
      throw new Error(`the sandbox stopped before it was ready (${describeExit(exited)}); see its lines above`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the sandbox did not answer on ${[...waiting].join(', ')} within ${READY_TIMEOUT_MS / 1000} s`);
    }
    for (const origin of [...waiting]) {
      if (await answers(origin)) waiting.delete(origin);
    }
    if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { stop, pid: child.pid };
}

async function answers(origin) {
  try {
    const reply = await fetch(origin, { signal: AbortSignal.timeout(2_000) });
    await reply.body?.cancel();
    return true;
  } catch {
    // Not listening yet: the caller polls again.
    return false;
  }
}

function describeExit(exit) {
  if (exit.error) return exit.error.message;
  return exit.signal ? `signal ${exit.signal}` : `exit status ${exit.code}`;
}

/** The distinct http(s) origins of the tasks' start URLs. */
export function startOrigins(tasks) {
  const origins = new Set();
  for (const task of tasks) {
    for (const url of task.startUrls ?? []) {
      try {
        const parsed = new URL(url);
        if (parsed.protocol === 'http:' || parsed.protocol === 'https:') origins.add(parsed.origin);
      } catch {
        // A malformed start URL is the task's problem; the run records it.
      }
    }
  }
  return [...origins];
}
