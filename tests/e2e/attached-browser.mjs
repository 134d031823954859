// A Chromium as someone else runs it (a browser farm's, a person's own): its own
// profile, a DevTools port and, unless `plain`, the built extension loaded. The runner
// attaches to it with --browser-endpoint; the tests read what it holds afterwards.

import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { BASE_ARGS, chromiumArgs } from '../../runner/browser.mjs';
import { builtExtension } from '../../runner/remote-browser.mjs';
import { chromiumPath, distDir } from './paths.mjs';

/**
 * @typedef {{ pid: number, endpoint: string, profile: string,
 *   child: import('node:child_process').ChildProcess }} Started
 */

/**
 * Chromium as someone else would run it: its own profile, a DevTools port, and (unless
 * `plain`) the built extension loaded. Resolves with the WebSocket it prints.
 * @param {string} dir @param {string} name @param {{ plain?: boolean }} [options]
 * @returns {Promise<Started>}
 */
export function startChromium(dir, name, { plain = false } = {}) {
  const profile = join(dir, name);
  mkdirSync(profile);
  const args = [
    ...(plain ? BASE_ARGS : chromiumArgs(distDir)),
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    'about:blank',
  ];
  // Its own process group, so that stopping it ends its helpers too (stopChromium).
  const child = spawn(chromiumPath, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${name}: no DevTools endpoint within 20 s:\n${err}`)), 20_000);
    child.stderr?.setEncoding('utf8').on('data', (d) => {
      err += d;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (match && child.pid) {
        clearTimeout(timer);
        resolve({ pid: child.pid, endpoint: match[1], profile, child });
      }
    });
    child.on('error', reject);
  });
}

/**
 * Ends a browser the test started, its helper processes with it, and waits for it to
 * be gone: a profile removed while Chromium still writes into it fails with
 * ENOTEMPTY. Killing the browser alone left a helper writing into the profile for
 * minutes on a loaded machine, so the whole process group it was started in goes.
 * @param {Started} browser
 */
export async function stopChromium(browser) {
  const { child } = browser;
  const running = child.exitCode === null && child.signalCode === null;
  const exited = running ? new Promise((resolve) => child.once('exit', resolve)) : Promise.resolve();
  try {
    process.kill(-browser.pid, 'SIGKILL');
  } catch (error) {
    // ESRCH: nothing of the group is left.
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ESRCH') throw error;
  }
  await exited;
}

/**
 * The runs a browser's extension holds, read through one of its own pages.
 * @param {string} endpoint
 * @returns {Promise<{ pages: string[], taskIds: string[], rules: number }>}
 */
export async function browserRecord(endpoint) {
  const browser = await chromium.connectOverCDP(endpoint);
  try {
    const [context] = browser.contexts();
    const pages = context.pages().map((p) => p.url());
    const page = await context.newPage();
    await page.goto(`chrome-extension://${builtExtension(distDir).id}/popup.html`);
    const taskIds = await page.evaluate(async () => {
      const messages = await import(/** @type {string} */ ('./messages.js'));
      const reply = await chrome.runtime.sendMessage(messages.listRuns());
      return reply.runs.map((/** @type {{ task: { id: string } }} */ r) => r.task.id);
    });
    const rules = await page.evaluate(async () => (await chrome.declarativeNetRequest.getSessionRules()).length);
    await page.close();
    return { pages, taskIds, rules };
  } finally {
    await browser.close();
  }
}

