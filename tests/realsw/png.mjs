// A minimal PNG encoder (8-bit RGB, one IDAT) for the pictures of the test ZIM:
// zimwriterfs requires a 48x48 PNG illustration, and articles carry a picture so the
// observation lists an image. Node 20 has no zlib.crc32, hence the table.

import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/**
 * @param {Buffer} bytes
 */
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
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
 * @param {number} width
 * @param {number} height
 * @param {(x: number, y: number) => [number, number, number]} colour
 * @returns {Buffer}
 */
export function png(width, height, colour) {
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    // Each row starts with filter type 0 (none).
    for (let x = 0; x < width; x++) raw.set(colour(x, y), y * stride + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A tower (a triangle on a sky) in `rgb`: the articles' pictures.
 * @param {[number, number, number]} rgb
 * @param {number} [size]
 */
export function towerPicture(rgb, size = 96) {
  return png(size, size, (x, y) => {
    const half = (y / size) * (size / 3);
    return Math.abs(x - size / 2) <= half ? rgb : [200, 225, 250];
  });
}
