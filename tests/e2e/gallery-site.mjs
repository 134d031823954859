// A small site for the media tests: three pages with images, where every image request
// gets a PNG of a colour never served before (and `no-store`), so each observation's
// pictures differ from every other's, even for the same element of the same page. A
// picture found in the wrong run or step can then never pass for the right one.
//
//   const gallery = await startGallery();
//   gallery.url('/index.html')   // http://127.0.0.1:<port>/index.html
//   gallery.imagesServed         // how many images went out
//   await gallery.close();
//
// Pages: /index.html (images a, b; link "Next page"), /page2.html (images c, d; link
// "Last page"), /page3.html (image e).

import { createServer } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import { portOfServer } from './sites.mjs';

/** @type {Record<string, { title: string, images: string[], link: [string, string] | null }>} */
const PAGES = {
  '/index.html': { title: 'Gallery', images: ['a', 'b'], link: ['Next page', '/page2.html'] },
  '/page2.html': { title: 'Gallery, page 2', images: ['c', 'd'], link: ['Last page', '/page3.html'] },
  '/page3.html': { title: 'Gallery, the end', images: ['e'], link: null },
};

/** @param {{ title: string, images: string[], link: [string, string] | null }} spec */
function page({ title, images, link }) {
  const imgs = images.map((name) => `<img src="/img/${name}.png" alt="Picture ${name}" width="96" height="64">`).join('\n');
  const anchor = link ? `<p><a href="${link[1]}">${link[0]}</a></p>` : '<p>The end.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1>\n${imgs}\n${anchor}</body></html>`;
}

/**
 * @param {string} type
 * @param {Buffer} data
 */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A width×height PNG of one RGB colour.
 * @param {number} width
 * @param {number} height
 * @param {[number, number, number]} rgb
 */
export function solidPng(width, height, [r, g, b]) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3])]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function startGallery() {
  let served = 0;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (Object.hasOwn(PAGES, path)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(page(PAGES[path]));
      return;
    }
    if (/^\/img\/[a-e]\.png$/.test(path)) {
      served += 1;
      // A colour of its own per request: 24 bits are far more than a test serves.
      /** @type {[number, number, number]} */
      const colour = [(served * 53) % 256, (served * 97) % 256, (served * 151 + 40) % 256];
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
      res.end(solidPng(96, 64, colour));
      return;
    }
    if (path === '/favicon.ico') {
      res.writeHead(204); // Browsers ask; a 404 would be logged as a console error.
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve())));
  const port = portOfServer(server);
  return {
    /** @param {string} path */
    url: (path) => `http://127.0.0.1:${port}${path}`,
    get imagesServed() {
      return served;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
