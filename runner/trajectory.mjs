// Writes an exported trajectory (EXPORT_RUN) as DIR/trajectories/<stem>.json with its
// media as image files beside it: every image data URL in the export is written out
// and replaced by the file's name, so the JSON stays small and the report's viewer
// page shows the files (src/report/trajectory.rs resolves media ids to them).

import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DATA_URL = /^data:image\/(png|jpeg|webp|gif);base64,([A-Za-z0-9+/=]+)$/;
/** @type {Record<string, string>} */
const EXTENSIONS = { png: 'png', jpeg: 'jpg', webp: 'webp', gif: 'gif' };

/**
 * Replaces image data URLs in `value` (deeply) by file names `<stem>-<n>.<ext>`; returns
 * the new value and the files to write. Pure, so it is tested without a browser.
 * @param {unknown} value
 * @param {string} stem
 * @returns {{ value: unknown, files: {name: string, bytes: Buffer}[] }}
 */
export function extractMedia(value, stem) {
  /** @type {{name: string, bytes: Buffer}[]} */
  const files = [];
  /** @type {Map<string, string>} */
  const seen = new Map(); // The same image twice is written once.
  /**
   * @param {unknown} v
   * @returns {unknown}
   */
  const visit = (v) => {
    if (typeof v === 'string') {
      const match = DATA_URL.exec(v);
      if (!match) return v;
      if (seen.has(v)) return seen.get(v);
      const name = `${stem}-${files.length + 1}.${EXTENSIONS[match[1]]}`;
      files.push({ name, bytes: Buffer.from(match[2], 'base64') });
      seen.set(v, name);
      return name;
    }
    if (Array.isArray(v)) return v.map(visit);
    if (v && typeof v === 'object') {
      // The export's media entries are `{id, mime, ..., dataUrl}`: once written out,
      // the field holds a file name and says so.
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => {
          const y = visit(x);
          return [k === 'dataUrl' && y !== x ? 'file' : k, y];
        }),
      );
    }
    return v;
  };
  return { value: visit(value), files };
}

/**
 * Writes the images, then the JSON (through a temporary file, so a reader never sees
 * half of it). `redact` masks the API key should the export ever contain it.
 * @param {string} dir the run folder
 * @param {string} stem
 * @param {unknown} trajectory
 * @param {(text: string) => string} redact
 * @returns {{ json: string, images: number }} the JSON's path and the image count
 */
export function writeTrajectory(dir, stem, trajectory, redact) {
  const folder = join(dir, 'trajectories');
  const { value, files } = extractMedia(trajectory, stem);
  for (const file of files) writeFileSync(join(folder, file.name), file.bytes);
  const json = join(folder, `${stem}.json`);
  writeFileSync(`${json}.tmp`, redact(`${JSON.stringify(value, null, 1)}\n`));
  renameSync(`${json}.tmp`, json);
  return { json, images: files.length };
}
