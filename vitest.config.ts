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
  },
});
