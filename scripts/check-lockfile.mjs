// Fails when `npm ci` would refuse package-lock.json, before CI finds out on a fresh clone.
//
// The registry mirror this project is built against serves only the Linux builds of packages that ship one
// native binary per platform (such as @unrs/resolver-binding-*). `npm install` then silently leaves the other
// platforms' optional packages out of the lock file, and `npm ci` rejects the lock as out of sync. The fix is
// to list the missing entries by hand (version, os, cpu, libc, "optional": true): npm skips them on Linux
// without fetching anything. See docs/decisions/024-lock-file-on-a-partial-mirror.md.
import { spawnSync } from 'node:child_process';

const result = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
  encoding: 'utf8',
});
if (result.status !== 0) {
  const missing = (result.stderr ?? '')
    .split('\n')
    .filter((line) => /Missing:|Invalid:/.test(line))
    .map((line) => line.replace(/^npm error\s*/, '  '));
  console.error('package-lock.json is not what `npm ci` accepts:');
  console.error(missing.length > 0 ? missing.join('\n') : result.stderr);
  process.exit(1);
}
console.log('package-lock.json: npm ci accepts it');
