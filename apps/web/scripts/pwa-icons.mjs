// `node apps/web/scripts/pwa-icons.mjs`: draws the console's install icons (decision 046) into public/ as PNG,
// from the same shape as favicon.svg (a white cross on the teal square), with nothing but node:zlib. The
// files are committed; run this again only when the shape or colour changes.
//   icon-192.png, icon-512.png  the rounded square, for launchers that show the icon as it is
//   icon-maskable-512.png       full-bleed teal with the cross inside the safe circle, for launchers that crop
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');
const TEAL = [0x0c, 0x85, 0x99];
const WHITE = [0xff, 0xff, 0xff];

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** An RGBA PNG of `size`² whose pixel at (x, y) in 0…32 units is `paint(x, y)` (null: transparent). */
function png(size, paint) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      const colour = paint(((x + 0.5) / size) * 32, ((y + 0.5) / size) * 32);
      if (colour) row.set([...colour, 255], 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** favicon.svg's cross: arms 6 units wide, 18 long, centred; `scale` shrinks it about the centre. */
const inCross = (x, y, scale = 1) => {
  const u = (x - 16) / scale + 16;
  const v = (y - 16) / scale + 16;
  return (u >= 13 && u <= 19 && v >= 7 && v <= 25) || (v >= 13 && v <= 19 && u >= 7 && u <= 25);
};
/** favicon.svg's square with corners of radius 7. */
const inRoundedSquare = (x, y) => {
  const r = 7;
  const cx = Math.min(Math.max(x, r), 32 - r);
  const cy = Math.min(Math.max(y, r), 32 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};

const plain = (x, y) => (inRoundedSquare(x, y) ? (inCross(x, y) ? WHITE : TEAL) : null);
// The safe zone of a maskable icon is the centred circle of 80% of its width: the cross, at 90%, stays inside it.
const maskable = (x, y) => (inCross(x, y, 0.9) ? WHITE : TEAL);

for (const [name, size, paint] of [
  ['icon-192.png', 192, plain],
  ['icon-512.png', 512, plain],
  ['icon-maskable-512.png', 512, maskable],
]) {
  writeFileSync(path.join(publicDir, name), png(size, paint));
  console.log(`wrote public/${name}`);
}
