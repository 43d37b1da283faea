#!/usr/bin/env node
// The careplane-agent command. Its build (dist/cli.js, made by `npm run build`) when there is one; in a
// development checkout without a build, the TypeScript sources through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built) && process.env.CAREPLANE_AGENT_SOURCES !== '1') {
  await import(built.href);
} else {
  let tsx;
  try {
    tsx = await import('tsx/esm/api');
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    console.error('careplane-agent: not built and tsx is not installed: run `npm run build` first');
    process.exit(1);
  }
  tsx.register();
  await import('../src/cli.ts');
}
