// `npm run seed`: demo data on an empty database, or `--scale small|large` for benchmark volumes.
// Uses the server's configuration (DATABASE_URL, or the embedded database in DATA_DIR) and migrates first.
import { parseArgs } from 'node:util';
import { loadConfig } from '@/config.js';
import { openDatabase } from '../client.js';
import { loadDemoDataIfEmpty } from './demo.js';
import { formatScaleReport, generateScaleData, scalePresets, type ScalePreset } from './scale.js';

const usage = `Usage: npm run seed -- [--scale small|large] [--users N] [--readings N] [--seed TEXT]

Without --scale: loads the demo data when the database has no users yet.
With --scale: adds a batch of scale data (small: ${scalePresets.small.users.toLocaleString('en')} users and
${scalePresets.small.readings.toLocaleString('en')} readings; large: ${scalePresets.large.users.toLocaleString('en')} users and ${scalePresets.large.readings.toLocaleString('en')} readings).
Every run adds a new batch with its own usernames and hardware identifiers; run it again for more.
Stop the server first when it uses the embedded database: only one process may open DATA_DIR.`;

const positiveInteger = (name: string, value: string | undefined) => {
  if (value === undefined) return undefined;
  const number = Number(value.replace(/_/g, ''));
  if (!Number.isSafeInteger(number) || number <= 0) throw new Error(`--${name} must be a positive integer`);
  return number;
};

async function main() {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string' },
      users: { type: 'string' },
      readings: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  if (values.scale !== undefined && !(values.scale in scalePresets)) {
    throw new Error(`--scale must be one of: ${Object.keys(scalePresets).join(', ')}`);
  }
  const config = loadConfig();
  const target = config.databaseUrl
    ? 'PostgreSQL (DATABASE_URL)'
    : `the embedded database in ${config.dataDir}`;
  console.log(`Opening ${target} ...`);
  const opened = performance.now();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 2,
  });
  console.log(`Opened and migrated in ${((performance.now() - opened) / 1000).toFixed(1)} s`);
  try {
    if (values.scale === undefined) {
      const summary = await loadDemoDataIfEmpty(database, values.seed ? { seed: values.seed } : {});
      console.log(summary ? summary : 'The database already has users: demo data not loaded.');
      return;
    }
    const preset = scalePresets[values.scale as ScalePreset];
    const result = await generateScaleData(database, {
      users: positiveInteger('users', values.users) ?? preset.users,
      readings: positiveInteger('readings', values.readings) ?? preset.readings,
      log: (line) => console.log(line),
    });
    console.log(`\nBatch ${result.tag} (usernames *@${result.domain}) on ${database.kind}:`);
    console.log(formatScaleReport(result));
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
