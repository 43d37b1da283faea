// Import cycles, type imports included (scripts/check-cycles.mjs runs it per app): ESLint's import-x/no-cycle
// skips `import type`, and a cycle of types
// still ties two files together (decision 032). The layers themselves are checked by ESLint.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Two files that need each other are one file, or a third one is missing between them.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['/dist/', '\\.data', 'apps/server/src/db/migrations'] },
    // Follow `import type` too: that is the point of this check.
    tsPreCompilationDeps: true,

    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      exportsFields: ['exports'],
    },
  },
};
