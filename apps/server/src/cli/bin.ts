// The careplane command's process (bin/careplane.mjs loads this file from the sources or from the build):
// runs one command and exits with its code; a started server keeps the process until a signal stops it.
import { run } from './main.js';

try {
  const code = await run(process.argv.slice(2));
  if (code !== null) process.exit(code);
} catch (error) {
  console.error(error);
  process.exit(1);
}
