// `npm run lint:cycles`: import cycles, type imports included (dependency-cruiser; .dependency-cruiser.cjs),
// for each app with its own tsconfig.json (the server and the console resolve '@/…' through its paths).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const depcruise = path.join(repo, 'node_modules', '.bin', 'depcruise');
const runs = [
  { folders: ['apps/server', 'packages'], tsconfig: 'apps/server/tsconfig.json' },
  { folders: ['apps/web'], tsconfig: 'apps/web/tsconfig.json' },
  { folders: ['apps/agent', 'apps/authenticator'] },
];

let failed = false;
for (const { folders, tsconfig } of runs) {
  const args = [...folders, '--config', '.dependency-cruiser.cjs'];
  // An absolute path: depcruise resolves a relative one's "extends" from the wrong folder.
  if (tsconfig) args.push('--ts-config', path.join(repo, tsconfig));
  const run = spawnSync(depcruise, args, { cwd: repo, stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
