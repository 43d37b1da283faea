#!/usr/bin/env node
// The careplane command. Where tsx is installed (a development checkout), it runs the TypeScript sources
// (src/cli/bin.ts), so a change is seen at once; where it is not (`npm ci --omit=dev`), the server's build
// (dist/careplane.js, made by `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let tsx;
try {
  tsx = await import('tsx/esm/api');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
}

if (tsx) {
  // The server's tsconfig.json, wherever the command is started from: its paths ('@/…') resolve the sources.
  tsx.register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  await import('../src/cli/bin.ts');
} else {
  const built = new URL('../dist/careplane.js', import.meta.url);
  if (!existsSync(built)) {
    console.error('careplane: the server is not built and tsx is not installed: run `npm run build` first');
    process.exit(1);
  }
  await import(built.href);
}
