// Where the catalogs are: one namespace per feature, found by path, each language a chunk of its own that
// loads when that language is spoken (decision 047). A new namespace needs no registration here: its
// i18n/en.ts and i18n/th.ts are found by the patterns below.
//   app/i18n/{en,th}.ts                   → common (the shell: layouts, top bar, error pages, shared words)
//   lib/i18n/{en,th}.ts                   → kit (lists, forms, filters, notices of the resource kit)
//   features/<feature>/i18n/{en,th}.ts    → <feature>
import type { CatalogModule } from '@/lib/i18n/translation.ts';

const loaders = import.meta.glob<CatalogModule>([
  '/src/app/i18n/{en,th}.ts',
  '/src/lib/i18n/{en,th}.ts',
  '/src/features/*/i18n/{en,th}.ts',
]);

/** The namespace and language of a catalog file, from its path. */
export function catalogOf(path: string): { namespace: string; language: string } | null {
  const match = /^\/src\/(?:app|lib|features\/([^/]+))\/i18n\/(en|th)\.ts$/.exec(path);
  if (!match?.[2]) return null;
  const namespace = match[1] ?? (path.startsWith('/src/app/') ? 'common' : 'kit');
  return { namespace, language: match[2] };
}

const byKey = new Map<string, () => Promise<CatalogModule>>();
for (const [path, load] of Object.entries(loaders)) {
  const catalog = catalogOf(path);
  if (catalog) byKey.set(`${catalog.language}/${catalog.namespace}`, load);
}

/** Every namespace there is. */
export const namespaces: readonly string[] = [
  ...new Set([...byKey.keys()].map((key) => key.slice(key.indexOf('/') + 1))),
].sort();

/** The texts of one namespace in one language; rejects for a namespace or language that has none. */
export async function loadCatalog(language: string, namespace: string) {
  const load = byKey.get(`${language}/${namespace}`);
  if (!load) throw new Error(`No catalog ${language}/${namespace}`);
  return (await load()).default;
}
