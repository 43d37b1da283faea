// `node scripts/precompress.mjs <folder>...`, after `vite build` (decision 018): writes a brotli (`.br`) and a
// gzip (`.gz`) copy beside each compressible built file, for @fastify/static's `preCompressed`, so the server
// sends them without compressing anything per request. At the highest levels: this runs once per build.
// Skipped: files under 1 KiB, source maps (only the developer tools fetch them) and copies that would not be
// at least 10% smaller; the server then sends the file itself.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
const MIN_BYTES = 1024;
const MAX_RATIO = 0.9;

const encoders = {
  br: (data) =>
    promisify(brotliCompress)(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gz: (data) => promisify(gzip)(data, { level: constants.Z_BEST_COMPRESSION }),
};

const filesUnder = (folder) =>
  readdirSync(folder, { recursive: true })
    .map((name) => path.join(folder, name))
    .filter((file) => statSync(file).isFile());

const folders = process.argv.slice(2);
if (folders.length === 0) {
  console.error('usage: node scripts/precompress.mjs <folder>...');
  process.exit(2);
}

for (const folder of folders) {
  const files = filesUnder(folder).filter((file) => COMPRESSIBLE.test(file));
  let before = 0;
  const after = { br: 0, gz: 0 };
  await Promise.all(
    files.map(async (file) => {
      const data = readFileSync(file);
      if (data.length < MIN_BYTES) return;
      before += data.length;
      for (const [extension, encode] of Object.entries(encoders)) {
        const compressed = await encode(data);
        const kept = compressed.length <= data.length * MAX_RATIO;
        if (kept) writeFileSync(`${file}.${extension}`, compressed);
        after[extension] += kept ? compressed.length : data.length;
      }
    }),
  );
  const kB = (bytes) => `${(bytes / 1024).toFixed(0)} kB`;
  console.log(
    `precompressed ${path.relative(repo, path.resolve(folder))}: ${kB(before)} of text → ` +
      `${kB(after.br)} brotli, ${kB(after.gz)} gzip`,
  );
}
