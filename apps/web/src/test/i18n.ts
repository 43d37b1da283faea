// Every catalog of the console at once, for tests: no chunk to wait for, and Thai ready for tests that switch.
import type { Resource, ResourceLanguage } from 'i18next';
import { catalogOf } from '@/app/i18n/catalogs.ts';
import type { CatalogModule } from '@/lib/i18n/translation.ts';

const modules = import.meta.glob<CatalogModule>(
  ['/src/app/i18n/{en,th}.ts', '/src/lib/i18n/{en,th}.ts', '/src/features/*/i18n/{en,th}.ts'],
  { eager: true },
);

/** Catalog files by path (`/src/features/x/i18n/th.ts`), for tests that walk them. */
export const catalogFiles = modules;

/** language → namespace → texts. */
export const allCatalogs: Resource = {};
for (const [path, module] of Object.entries(modules)) {
  const catalog = catalogOf(path);
  if (!catalog) continue;
  const language: ResourceLanguage = (allCatalogs[catalog.language] ??= {});
  language[catalog.namespace] = module.default;
}
