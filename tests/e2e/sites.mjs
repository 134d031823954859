// Serves the local test "websites" under tests/e2e/sites/<name>/, each on its own
// 127.0.0.1 port so that every folder is a separate origin, as real sites are.
//
// Pages may link to each other with placeholders filled in at serve time:
//   {{origin:NAME}}      http://127.0.0.1:<port of NAME>
//   {{alt-origin:NAME}}  http://localhost:<port of NAME>  (another *site* for Chromium's
//                        site isolation, so an iframe from it is out-of-process)
//   {{port:NAME}}        the port of NAME alone
//   {{hostname}}         this machine's host name (os.hostname())
// A file PATH.redirect (no PATH beside it) answers PATH with a 302 to the URL it holds.
//
// Usage:
//   const sites = await startSites();          // every folder
//   sites.url('shop', '/item.html?id=3');      // absolute URL on that site
//   const held = sites.hold('shop', '/item.html');  // next response for that path waits:
//   await held.arrived; held.release();        //   the request came in; now answer it
//   sites.requests                             // [{site, path}] of every request served
//   sites.fill(text)                           // placeholders filled, as pages get them
//   await sites.close();                       // in `after`

import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const sitesRoot = resolve(fileURLToPath(new URL('./sites/', import.meta.url)));

/** @type {Record<string, string>} */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.txt': 'text/plain; charset=utf-8',
  '.pdf': 'application/pdf',
};

/** Text types get their placeholders filled; binary files are sent as they are. */
const TEMPLATED = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt']);

/**
 * @param {{ names?: string[], root?: string }} [options] folders to serve (default: all)
 */
export async function startSites({ names, root = sitesRoot } = {}) {
  const wanted = names ?? readdirSync(root).filter((n) => statSync(join(root, n)).isDirectory());
  /** @type {Map<string, import('node:http').Server>} */
  const servers = new Map();
  /** @type {Ports} */
  const ports = new Map();
  /** @type {Map<string, { arrive: () => void, released: Promise<void> }>} */
  const holds = new Map();
  /** @type {{ site: string, path: string }[]} */
  const requests = [];
  /**
   * @param {string} name
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  const handle = (name, req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push({ site: name, path });
    const held = holds.get(`${name}${path}`);
    if (!held) return serve(root, name, ports, req, res);
    holds.delete(`${name}${path}`);
    held.arrive();
    return held.released.then(() => serve(root, name, ports, req, res));
  };
  try {
    for (const name of wanted) {
      const server = createServer((req, res) => handle(name, req, res));
      await /** @type {Promise<void>} */ (new Promise((ok, fail) => {
        server.once('error', fail);
        server.listen(0, '127.0.0.1', () => ok());
      }));
      servers.set(name, server);
      ports.set(name, portOfServer(server));
    }
  } catch (error) {
    await closeAll(servers);
    throw error;
  }
  return {
    ports,
    /** @param {string} name @param {string} [host] */
    origin: (name, host = '127.0.0.1') => `http://${host}:${portOf(ports, name)}`,
    /** @param {string} name @param {string} [path] @param {string} [host] */
    url: (name, path = '/', host = '127.0.0.1') => `http://${host}:${portOf(ports, name)}${path}`,
    requests,
    /**
     * `text` with its {{origin:NAME}} placeholders filled (task files over these sites).
     * @param {string} text
     */
    fill: (text) => fill(text, ports),
    /**
     * Holds the next response for `path` (no query) on site `name` until release().
     * @param {string} name
     * @param {string} path
     */
    hold(name, path) {
      portOf(ports, name);
      /** @type {() => void} */
      let arrive = () => {};
      /** @type {() => void} */
      let release = () => {};
      const arrived = new Promise((resolve) => (arrive = () => resolve(undefined)));
      /** @type {Promise<void>} */
      const released = new Promise((resolve) => (release = resolve));
      holds.set(`${name}${path}`, { arrive, released });
      return { arrived, release };
    },
    close: () => closeAll(servers),
  };
}

/** @typedef {Map<string, number>} Ports the port of each site, by name */

/**
 * The port a listening server got (listen(0) picks a free one).
 * @param {import('node:net').Server} server
 */
export function portOfServer(server) {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server is not listening on a port');
  return address.port;
}

/**
 * @param {Ports} ports
 * @param {string} name
 */
function portOf(ports, name) {
  const port = ports.get(name);
  if (port === undefined) throw new Error(`no test site named ${name} (have: ${[...ports.keys()]})`);
  return port;
}

/** @param {Map<string, import('node:http').Server>} servers */
function closeAll(servers) {
  return Promise.all(
    [...servers.values()].map(
      (s) =>
        /** @type {Promise<void>} */ (new Promise((ok) => {
          s.closeAllConnections?.();
          s.close(() => ok());
        })),
    ),
  );
}

/**
 * @param {string} root
 * @param {string} name
 * @param {Ports} ports
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
function serve(root, name, ports, req, res) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  let path = decodeURIComponent(url.pathname);
  if (path.endsWith('/')) path += 'index.html';
  const siteDir = join(root, name);
  const file = normalize(join(siteDir, path));
  // Refuse anything that escapes the site's folder (../ tricks).
  if (!file.startsWith(siteDir + sep)) return send(res, 403, 'forbidden', '.txt');
  /** @type {string | Buffer} */
  let body;
  try {
    body = readFileSync(file);
  } catch {
    // PATH.redirect beside where PATH would be: a 302 to the path it holds (a redirect
    // loop when that is PATH itself).
    try {
      const target = fill(readFileSync(`${file}.redirect`, 'utf8').trim(), ports);
      res.writeHead(302, { location: target, 'cache-control': 'no-store' });
      return res.end();
    } catch {
      return send(res, 404, `not found: ${path}`, '.txt');
    }
  }
  const ext = extname(file);
  if (TEMPLATED.has(ext)) body = fill(body.toString('utf8'), ports);
  return send(res, 200, body, ext);
}

/**
 * @param {string} text
 * @param {Ports} ports
 */
function fill(text, ports) {
  return text
    .replace(/\{\{(origin|alt-origin|port):([a-z0-9_-]+)\}\}/g, (whole, /** @type {string} */ kind, /** @type {string} */ site) => {
      const port = ports.get(site);
      if (port === undefined) return whole; // Left visible so a broken link is obvious.
      if (kind === 'port') return String(port);
      return `http://${kind === 'origin' ? '127.0.0.1' : 'localhost'}:${port}`;
    })
    .replaceAll('{{hostname}}', hostname());
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string | Buffer} body
 * @param {string} ext
 */
function send(res, status, body, ext) {
  res.writeHead(status, { 'content-type': TYPES[ext] ?? 'application/octet-stream', 'cache-control': 'no-store' });
  res.end(body);
}
