#!/usr/bin/env node
// The careplane command: runs the TypeScript entry (src/cli/main.ts) through tsx.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/cli/main.ts');
try {
  const code = await run(process.argv.slice(2));
  // null: a server was started and runs until a signal stops it.
  if (code !== null) process.exit(code);
} catch (error) {
  console.error(error);
  process.exit(1);
}
