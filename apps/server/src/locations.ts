// Where the server finds its own files, the same from its sources and from its build. This module is
// src/locations.ts under tsx and Vitest, and part of a file directly in dist/ in the build (scripts/build.mjs
// puts every output file there and copies the migrations to dist/db/migrations). So the migrations are at
// db/migrations beside it either way, and the server's folder is the nearest one above with a package.json.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function nearestPackageFolder(start: string): string {
  for (let folder = start; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json'))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`No package.json above ${start}`);
  }
}

/** apps/server */
export const serverRoot = nearestPackageFolder(here);
/** The drizzle-kit migrations: src/db/migrations, or their copy in dist/db/migrations. */
export const migrationsFolder = path.join(here, 'db', 'migrations');
/** The console's build. */
export const defaultWebRoot = path.resolve(serverRoot, '../web/dist');
/** The authenticator's build. */
export const defaultAuthenticatorRoot = path.resolve(serverRoot, '../authenticator/dist');
