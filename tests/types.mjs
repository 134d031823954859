// Types shared by the test files (JSDoc only: nothing here runs). A test names them as
// `/** @type {import('../types.mjs').Sites} */ let sites;`.

/** @typedef {import('../runner/driver.mjs').Extension} Extension a launched browser with the extension */
/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').BrowserContext} BrowserContext */
/** @typedef {import('playwright-core').Browser} Browser */
/** @typedef {Awaited<ReturnType<typeof import('./e2e/sites.mjs').startSites>>} Sites the local test sites */
/** @typedef {Awaited<ReturnType<typeof import('./e2e/fake-providers.mjs').startFakeProviders>>} FakeProviders */
/** @typedef {import('./e2e/fake-providers.mjs').FakeRequest} FakeRequest */
/** @typedef {Awaited<ReturnType<typeof import('./e2e/runner-process.mjs').runRunner>>} RunnerResult the runner's exit and output */
/** @typedef {Awaited<ReturnType<typeof import('./e2e/worker-control.mjs').workerControl>>} WorkerControl */

/**
 * JSON another program sent (a DevTools reply, a request body, an export): it has no
 * static shape, and the test reading it checks the fields it uses.
 * @typedef {any} Json
 */

export {};
