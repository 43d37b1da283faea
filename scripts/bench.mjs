// `npm run bench`: every bench (api, auth, ingest, documents) one after another, each in its own processes,
// then ONE table of what they measured: the path, its figure, the reference measured in the same run, the ratio,
// the aim and whether it was met. Aims are reported, never asserted: the exit code says only whether every
// bench ran to the end and reported its rows.
//
// `npm run bench:smoke` (or BENCH_SMOKE=1, or --smoke): every bench once with tiny data and seconds of load, on a
// throwaway database (embedded unless DATABASE_URL_TEST names a PostgreSQL server; DATABASE_URL is ignored), to
// show they still run.
// --only api,auth picks benches. BENCH_SUMMARY=file writes {benches:[{name, ok, rows, code}]} as JSON there.
// Each bench appends its rows to the file in BENCH_ROWS (apps/server/bench/rows.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    only: { type: 'string', default: 'api,auth,ingest,documents' },
  },
});
const smoke = args.smoke || process.env.BENCH_SMOKE === '1';
const benches = args.only.split(',').filter(Boolean);
const work = mkdtempSync(path.join(tmpdir(), 'careplane-bench-'));

// The smoke run's data is throwaway: never DATABASE_URL's database (an empty value is none either).
const env = { ...process.env };
if (smoke || !env.DATABASE_URL) delete env.DATABASE_URL;

const results = [];
for (const name of benches) {
  const rowsFile = path.join(work, `${name}.jsonl`);
  const started = performance.now();
  console.log(`\n=== bench:${name}${smoke ? ' (smoke)' : ''} ===\n`);
  const code = await new Promise((resolve) => {
    const child = spawn('npm', ['run', `bench:${name}`, '-w', '@careplane/server', '--silent'], {
      cwd: repo,
      stdio: 'inherit',
      env: {
        ...env,
        BENCH_ROWS: rowsFile,
        ...(smoke ? { BENCH_SMOKE: '1' } : {}),
        // Relative paths (DATA_DIR) resolve from the repository, as for `npm run bench:<name>`.
        INIT_CWD: process.env.INIT_CWD ?? repo,
      },
    });
    child.on('error', () => resolve(1));
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  const rows = existsSync(rowsFile)
    ? readFileSync(rowsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  const seconds = (performance.now() - started) / 1000;
  results.push({ name, code, ok: code === 0 && rows.length > 0, rows, seconds });
}
rmSync(work, { recursive: true, force: true });

// --- The table ----------------------------------------------------------------------------------------------
const number = (value) =>
  value === null || value === undefined
    ? '—'
    : value >= 100
      ? Math.round(value).toLocaleString('en')
      : value.toFixed(1);
const header = ['bench', 'path', 'figure', 'reference', 'ratio', 'aim', 'met'];
const lines = [];
for (const result of results) {
  for (const row of result.rows) {
    lines.push([
      row.bench,
      row.path,
      row.figure === null ? '—' : `${number(row.figure)} ${row.unit}`,
      row.reference === null
        ? `— (${row.referenceName})`
        : `${number(row.reference)} ${row.unit} (${row.referenceName})`,
      row.ratio === null ? '—' : `${row.ratio.toFixed(2)}×`,
      row.aim,
      row.met === null ? '—' : row.met ? 'yes' : 'NO',
    ]);
  }
  if (!result.ok) {
    const why = result.code !== 0 ? `ended with exit code ${result.code}` : 'reported no rows';
    lines.push([result.name, `(the bench ${why})`, '—', '—', '—', '—', 'FAILED']);
  }
}
const widths = header.map((title, column) =>
  Math.max(title.length, ...lines.map((line) => line[column].length)),
);
const format = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
console.log(
  `\n=== bench table${smoke ? ' (smoke: tiny data, seconds of load; the figures mean nothing)' : ''} ===\n`,
);
console.log(format(header));
console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
for (const line of lines) console.log(format(line));
console.log('');
for (const result of results) {
  const notes = [...new Set(result.rows.map((row) => row.note).filter(Boolean))];
  console.log(
    `${result.ok ? 'ran ' : 'FAIL'} ${result.name} in ${result.seconds.toFixed(0)} s${notes.length ? `: ${notes.join('; ')}` : ''}`,
  );
}

if (process.env.BENCH_SUMMARY) {
  const summary = results.map(({ name, ok, code, rows, seconds }) => ({ name, ok, code, rows, seconds }));
  writeFileSync(process.env.BENCH_SUMMARY, JSON.stringify({ smoke, benches: summary }));
}
process.exit(results.every((result) => result.ok) ? 0 : 1);
