// `npm run build -w @careplane/server`: the server as plain JavaScript in dist/, so that it starts with `node`
// and runs where development tools (tsx) are not installed (decision 017).
//
// - Entries: dist/main.js (the server), dist/careplane.js (the careplane command, run by bin/careplane.mjs),
//   dist/seed.js (`npm run seed`), dist/pglite-thread.js (the embedded database's thread, started by the code
//   that opens the database, from beside it). Code they share goes into chunks beside them: every output file sits
//   directly in dist/, which src/locations.ts relies on to find the migrations. (`--outdir <folder>` builds
//   elsewhere inside apps/server, for the build's own test.)
// - The workspace packages (TypeScript source: @careplane/shared, @careplane/pdf-signatures) are inlined;
//   every npm package stays an import, resolved from node_modules at run time. A package imported but declared
//   neither in the server's `dependencies` nor in those of an inlined workspace package fails the build, since
//   `npm ci --omit=dev` would not install it; so does one that dist/ would not find in node_modules.
// - The drizzle-kit migrations are copied to dist/db/migrations.
import { cpSync, existsSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });
const outdir = path.resolve(root, options.outdir);
if (!outdir.startsWith(root + path.sep)) {
  console.error(`server build: --outdir must be inside ${root}`);
  process.exit(2);
}
const shown = path.relative(root, outdir);
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const manifest = readJson(path.join(root, 'package.json'));
const inlined = new Set(['@careplane/shared', '@careplane/pdf-signatures']);

/** Where Node finds a package from `from`: the first node_modules/<name> on the way up. */
function installedPackage(name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const folder = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(folder, 'package.json'))) return folder;
    if (path.dirname(dir) === dir) return undefined;
  }
}

// An inlined package's own dependencies are installed with it (`npm ci --omit=dev` installs a dependency's
// dependencies), so its imports may stay imports too.
const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));
for (const name of inlined) {
  const folder = installedPackage(name, root);
  if (!folder) {
    console.error(`server build: ${name} is not installed: run npm install`);
    process.exit(1);
  }
  for (const dependency of Object.keys(readJson(path.join(folder, 'package.json')).dependencies ?? {})) {
    dependencies.add(dependency);
  }
}

/** `@scope/name/sub/path` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Every import of a package (not a relative path, not Node's own) → the first file that imports it. */
const imported = new Map();
const packagesStayImports = {
  name: 'packages-stay-imports',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      // '@/…' is the server's own src/… (tsconfig.json's paths, which esbuild follows): not a package.
      if (args.path.startsWith('@/')) return undefined;
      const name = packageOf(args.path);
      if (args.path.startsWith('node:') || builtinModules.includes(name)) return { external: true };
      if (inlined.has(name)) return undefined;
      if (!imported.has(name)) imported.set(name, path.relative(root, args.importer));
      return { path: args.path, external: true };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'src/main.ts',
    careplane: 'src/cli/bin.ts',
    seed: 'src/db/seed/cli.ts',
    'pglite-thread': 'src/db/pglite-thread.ts',
  },
  outdir,
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  plugins: [packagesStayImports],
  logLevel: 'warning',
});
if (result.errors.length > 0) process.exit(1);

const undeclared = [...imported].filter(([name]) => !dependencies.has(name));
if (undeclared.length > 0) {
  rmSync(outdir, { recursive: true, force: true });
  console.error(
    'server build: these packages are imported but not in the dependencies of apps/server ' +
      'or of the workspace packages it inlines:',
  );
  for (const [name, importer] of undeclared) console.error(`  ${name} (imported by ${importer})`);
  process.exit(1);
}
// An inlined package's dependency installed only beside that package (a version apart) is out of dist/'s reach.
const unreachable = [...imported].filter(([name]) => !installedPackage(name, outdir));
if (unreachable.length > 0) {
  rmSync(outdir, { recursive: true, force: true });
  console.error(`server build: ${shown}/ would not find these packages in node_modules:`);
  for (const [name, importer] of unreachable) console.error(`  ${name} (imported by ${importer})`);
  process.exit(1);
}

cpSync(path.join(root, 'src/db/migrations'), path.join(outdir, 'db/migrations'), { recursive: true });
if (!existsSync(path.join(outdir, 'db/migrations/meta/_journal.json'))) {
  console.error('server build: the migrations were not copied');
  process.exit(1);
}

const scripts = readdirSync(outdir).filter((name) => name.endsWith('.js'));
const bytes = scripts.reduce((sum, name) => sum + statSync(path.join(outdir, name)).size, 0);
console.log(
  `server built in ${shown}/: main.js, careplane.js, seed.js, pglite-thread.js and ${scripts.length - 4} shared chunks ` +
    `(${(bytes / 1024).toFixed(0)} kB), ${imported.size} packages left to node_modules, the migrations copied`,
);
