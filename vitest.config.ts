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
    // At least three test files at a time. Vitest's default (one less than the cores) is one on a two-core
    // machine, where a server test file waits on its database, sockets and timers much of the time: with two,
    // the PGlite layer of `npm test` took 8.8 min instead of 12.5; with three, the PostgreSQL layer 5.6 min
    // instead of 8.7 (docs/decisions/054).
    maxWorkers: Math.max(3, availableParallelism() - 1),
  },
});
