// The one known start-up line of oidc-provider on Node.js 20 is filtered, and only that line (decision 016).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { UNSUPPORTED_RUNTIME_WARNING, isUnsupportedRuntimeWarning } from './oidc.js';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = (code: string) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: serverRoot,
    timeout: 30_000,
  });
// What oidc-provider itself checks: an LTS release named Jod (22) or later.
const lts = process.release.lts;
const warnedOnThisRuntime = !lts || lts.charCodeAt(0) < 'Jod'.charCodeAt(0);

describe('the oidc-provider import', () => {
  it('recognises exactly the known warning, coloured or not', () => {
    expect(isUnsupportedRuntimeWarning([UNSUPPORTED_RUNTIME_WARNING])).toBe(true);
    expect(isUnsupportedRuntimeWarning([`\u001b[31;1m${UNSUPPORTED_RUNTIME_WARNING}\u001b[0m`])).toBe(true);
    expect(isUnsupportedRuntimeWarning([`${UNSUPPORTED_RUNTIME_WARNING} `])).toBe(false);
    expect(isUnsupportedRuntimeWarning([UNSUPPORTED_RUNTIME_WARNING, 'more'])).toBe(false);
    expect(isUnsupportedRuntimeWarning(['oidc-provider WARNING: something else'])).toBe(false);
    expect(isUnsupportedRuntimeWarning([new Error(UNSUPPORTED_RUNTIME_WARNING)])).toBe(false);
  });

  it.runIf(warnedOnThisRuntime)('is the line oidc-provider prints on this runtime', async () => {
    const { stderr } = await run("await import('oidc-provider');");
    expect(stderr).toContain(UNSUPPORTED_RUNTIME_WARNING);
  });

  it('loads the provider without that line, and lets other warnings through', async () => {
    const { stdout, stderr } = await run(
      [
        "const oidc = await import('./src/auth-server/oidc.ts');",
        "console.warn('after the import');",
        'console.log(typeof oidc.Provider, typeof oidc.errors.InvalidGrant);',
      ].join('\n'),
    );
    expect(stderr).not.toContain('Unsupported runtime');
    expect(stderr).toContain('after the import');
    expect(stdout.trim()).toBe('function function');
  });
});
