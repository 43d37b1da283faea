import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One run over every workspace; each keeps its own config beside its code.
export default defineConfig({
  test: {
    projects: [
      'packages/shared',
      'packages/pdf-signatures',
      'apps/server',
      'apps/web',
      'apps/authenticator',
      'apps/agent',
    ],
    // At least two test files at a time. Vitest's default (one less than the cores) is one on a two-core
    // machine, where a file waits on its database or sockets about a third of the time: with two, the PGlite
    // layer of `npm test` took 8.8 min instead of 12.5 (docs/decisions/054).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
