// The careplane-agent command (bin/careplane-agent.mjs loads this): runs the command line and ends the process
// with its exit code. The commands are in program.ts; README.md ("The device agent") describes them.
import { main } from './program.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Unexpected: shown whole, so that it can be reported.
    console.error('careplane-agent: unexpected error:', error);
    process.exit(1);
  },
);
