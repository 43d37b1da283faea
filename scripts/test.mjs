// `npm test`: every Vitest project (unit, server integration, console), the server's stress layer (fuzzed
// operations and the access matrix), the benches' smoke run, then the browser layer (Playwright in the
// operating system's Chromium, against the built console, authenticator and server, each rebuilt first when
// missing or older than its sources). Ends with a line per layer (its counts, its time, and the name of every
// test that failed or was flaky, so that the last lines of a long run say what to look at), then one line
// `N passed, N failed` over all of them.
//
// Without Chromium the browser layer is skipped with a warning, unless REQUIRE_E2E=1 (CI), where that fails.
// Last, the Node 24 smoke (scripts/node24-smoke.mjs, decision 040): the server built and run by Node 24 from
// the npm registry; skipped with a warning only when the registry does not answer and REQUIRE_E2E is not 1.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(repo, 'node_modules', '.bin', name);
const reports = mkdtempSync(path.join(tmpdir(), 'careplane-test-'));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const requireE2e = process.env.REQUIRE_E2E === '1';

const run = (command, args, env = {}) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repo, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

const firstLine = (text) => String(text ?? '').split('\n')[0];

// Each layer's wall time, from its banner to its result, is shown in the summary.
let layerStarted = Date.now();
const banner = (text) => {
  layerStarted = Date.now();
  console.log(`\n=== ${text} ===\n`);
};

function loud(lines) {
  const width = Math.max(...lines.map((line) => line.length)) + 4;
  const rule = '!'.repeat(width);
  console.error(['', rule, ...lines.map((line) => `! ${line.padEnd(width - 4)} !`), rule, ''].join('\n'));
}

/** Newest modification time under the given paths (files or folders), skipping node_modules. */
function newestChange(paths) {
  let newest = 0;
  const visit = (entry) => {
    if (!existsSync(entry)) return;
    const stat = statSync(entry);
    if (stat.isDirectory()) {
      for (const name of readdirSync(entry)) if (name !== 'node_modules') visit(path.join(entry, name));
    } else if (stat.mtimeMs > newest) {
      newest = stat.mtimeMs;
    }
  };
  paths.forEach((entry) => visit(path.join(repo, entry)));
  return newest;
}

/** Playwright's tests of the given outcome ('unexpected' or 'flaky'), as `file > title [project]`. */
function playwrightTests(report, outcome) {
  const names = [];
  const visit = (suite, titles) => {
    const here = suite.title && !suite.file?.endsWith(suite.title) ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === outcome) {
          names.push(
            `${spec.file ?? suite.file} > ${[...here, spec.title].join(' > ')} [${test.projectName}]`,
          );
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child, here);
  };
  for (const suite of report?.suites ?? []) visit(suite, []);
  return names;
}

/** A layer that exited non-zero has failed at least once, even when no test says so. */
const atLeastOneIfFailed = (code, failed) => (code !== 0 && failed === 0 ? 1 : failed);

/** Vitest files that failed without a failing test (an import error, a failing hook) count once each. */
const failedOutside = (file) =>
  file.status === 'failed' && !file.assertionResults?.some((test) => test.status === 'failed');
const failedOutsideTests = (report) => (report?.testResults ?? []).filter(failedOutside).length;

/** Vitest's failing tests and files, as `file > test` (a file that failed outside its tests, by its name). */
function vitestFailures(report) {
  return (report?.testResults ?? []).flatMap((file) => {
    const where = path.relative(repo, file.name);
    if (failedOutside(file)) return [`${where} (outside its tests)`];
    return (file.assertionResults ?? [])
      .filter((test) => test.status === 'failed')
      .map((test) => `${where} > ${test.fullName ?? test.title}`);
  });
}

const layers = [];
const record = (layer) => layers.push({ ...layer, seconds: Math.round((Date.now() - layerStarted) / 1000) });

// 1. Vitest: all projects in one run, the server's integration tests on the embedded database (PGlite).
// 1b. With DATABASE_URL_TEST (CI sets it), the server's tests again on that PostgreSQL server.
async function vitestLayer(name, args, env) {
  banner(name);
  const output = path.join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const code = await run(
    bin('vitest'),
    ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${output}`],
    env,
  );
  const report = readJson(output);
  record({
    name,
    ok: code === 0 && report !== undefined,
    passed: report?.numPassedTests ?? 0,
    failed: atLeastOneIfFailed(code, (report?.numFailedTests ?? 0) + failedOutsideTests(report)),
    note: report ? undefined : 'no report was written',
    failures: vitestFailures(report),
  });
}

const postgresUrl = process.env.DATABASE_URL_TEST;
await vitestLayer('vitest: unit, server integration on PGlite, console', [], { DATABASE_URL_TEST: '' });
if (postgresUrl) {
  await vitestLayer('vitest: server integration on PostgreSQL', ['--project', 'server'], {
    DATABASE_URL_TEST: postgresUrl,
  });
}

// 1c. The stress layer (docs/decisions/041): generated requests against every OpenAPI operation and the
// role × operation access matrix, bounded (STRESS_RUNS requests per operation) to a few minutes.
await vitestLayer('vitest: stress (fuzzed operations, access matrix)', [
  '-c',
  'apps/server/vitest.stress.config.ts',
]);

// 1d. The benches, once each with tiny data (scripts/bench.mjs --smoke), so that they keep running: a bench
// passes when it ran to the end and reported its rows. Never a time: the figures are printed, not judged. On a
// throwaway database: embedded, or on DATABASE_URL_TEST's server when that is set (never DATABASE_URL's).
banner('bench smoke: every bench once, tiny data');
{
  const output = path.join(reports, 'bench-smoke.json');
  const code = await run('node', ['scripts/bench.mjs', '--smoke'], { BENCH_SUMMARY: output });
  const benches = readJson(output)?.benches;
  const passed = benches?.filter((bench) => bench.ok).length ?? 0;
  record({
    name: 'bench smoke',
    ok: code === 0 && benches !== undefined,
    passed,
    failed: atLeastOneIfFailed(code, (benches?.length ?? 0) - passed),
    note: benches ? undefined : 'no summary was written',
  });
}

// 2. Playwright: the real server and console build in Chromium.
banner('playwright: end to end in Chromium');
if (!existsSync(chromium)) {
  loud([
    `END-TO-END TESTS ${requireE2e ? 'CANNOT RUN' : 'SKIPPED'}: no Chromium at ${chromium}`,
    'Install it with: apt-get install -y chromium   (or set CHROMIUM_PATH)',
    requireE2e ? 'REQUIRE_E2E=1: this is a failure.' : 'Only the browser layer is skipped.',
  ]);
  record({
    name: 'playwright',
    ok: !requireE2e,
    passed: 0,
    failed: requireE2e ? 1 : 0,
    note: requireE2e ? 'no Chromium, and REQUIRE_E2E=1' : 'skipped: no Chromium',
  });
} else {
  let ready = true;
  const built = path.join(repo, 'apps/web/dist/index.html');
  const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts'];
  sources.push('apps/web/package.json', 'apps/web/postcss.config.js', 'packages/shared/src');
  sources.push('scripts/precompress.mjs');
  if (!existsSync(built) || statSync(built).mtimeMs < newestChange(sources)) {
    console.log('The console build is missing or older than its sources: building it.');
    ready = (await run('npm', ['run', 'build', '-w', '@careplane/web'])) === 0;
  }
  // The authenticator app (served at /authenticator), likewise.
  const authenticatorBuilt = path.join(repo, 'apps/authenticator/dist/index.html');
  const authenticatorSources = ['apps/authenticator/src', 'apps/authenticator/public'];
  authenticatorSources.push('apps/authenticator/index.html', 'apps/authenticator/vite.config.ts');
  authenticatorSources.push(
    'apps/authenticator/package.json',
    'packages/shared/src',
    'scripts/precompress.mjs',
  );
  if (
    ready &&
    (!existsSync(authenticatorBuilt) ||
      statSync(authenticatorBuilt).mtimeMs < newestChange(authenticatorSources))
  ) {
    console.log('The authenticator build is missing or older than its sources: building it.');
    ready = (await run('npm', ['run', 'build', '-w', '@careplane/authenticator'])) === 0;
  }
  // The server: the browser layer runs its build (apps/server/dist), as `npm start` does.
  const serverBuilt = path.join(repo, 'apps/server/dist/main.js');
  const serverSources = ['apps/server/src', 'apps/server/scripts', 'apps/server/package.json'];
  serverSources.push(
    'packages/shared/src',
    'packages/pdf-signatures/src',
    'packages/pdf-signatures/package.json',
  );
  if (ready && (!existsSync(serverBuilt) || statSync(serverBuilt).mtimeMs < newestChange(serverSources))) {
    console.log('The server build is missing or older than its sources: building it.');
    ready = (await run('npm', ['run', 'build', '-w', '@careplane/server'])) === 0;
  }
  if (!ready) {
    record({ name: 'playwright', ok: false, passed: 0, failed: 1, note: 'a build failed' });
  } else {
    const output = path.join(reports, 'playwright.json');
    const code = await run(
      bin('playwright'),
      ['test', '-c', 'apps/web/e2e/playwright.config.ts', '--reporter=list,json'],
      { PLAYWRIGHT_JSON_OUTPUT_FILE: output },
    );
    const report = readJson(output);
    const stats = report?.stats;
    record({
      name: 'playwright',
      ok: code === 0 && stats !== undefined,
      passed: stats ? stats.expected + stats.flaky : 0,
      // Errors outside tests (the server did not start, a spec did not load) count as failures too.
      failed: atLeastOneIfFailed(code, (stats?.unexpected ?? 0) + (report?.errors?.length ?? 0)),
      note: !stats
        ? 'no report was written'
        : stats.flaky
          ? `${stats.flaky} passed only on a second try: flaky, named below`
          : undefined,
      failures: [
        ...playwrightTests(report, 'unexpected'),
        ...(report?.errors ?? []).map((error) => `outside any test: ${firstLine(error.message)}`),
      ],
      flaky: playwrightTests(report, 'flaky'),
    });
  }
}

// 3. The server on Node 24 (a binary from the npm registry, cached after the first run).
banner('node 24 smoke: build, start, sign in, one workflow');
{
  const code = await run(process.execPath, ['scripts/node24-smoke.mjs']);
  const skipped = code === 77;
  record({
    name: 'node 24 smoke',
    ok: code === 0 || skipped,
    passed: code === 0 ? 1 : 0,
    failed: code === 0 || skipped ? 0 : 1,
    note: skipped ? 'skipped: the npm registry does not answer' : undefined,
  });
}

rmSync(reports, { recursive: true, force: true });

banner('summary');
for (const layer of layers) {
  const note = layer.note ? ` (${layer.note})` : '';
  const took = `${Math.floor(layer.seconds / 60)} min ${layer.seconds % 60} s`;
  console.log(
    `${layer.ok ? 'ok  ' : 'FAIL'} ${layer.name}: ${layer.passed} passed, ${layer.failed} failed${note}, ${took}`,
  );
  // Named here too, so that the last lines of a long run say which tests to look at.
  for (const name of layer.failures ?? []) console.log(`       failed: ${name}`);
  for (const name of layer.flaky ?? []) console.log(`       flaky:  ${name}`);
}
const passed = layers.reduce((sum, layer) => sum + layer.passed, 0);
const failed = layers.reduce((sum, layer) => sum + layer.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(layers.every((layer) => layer.ok) ? 0 : 1);
