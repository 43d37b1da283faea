// Every list that exports CSV, and each of its views, has its Thai headers (shared/i18n/column-titles.ts)
// under the name its file is written under: a list or view added without them would write English headers
// in a Thai file. tsc checks each list's columns against its titles; this finds the lists.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { columnTitle, thaiColumnTitles } from '@careplane/shared/i18n/column-titles';
import type { AnyResourceDefinition } from './definition.js';

const modules = fileURLToPath(new URL('../../modules/', import.meta.url));
const resourceFiles = readdirSync(modules, { recursive: true, encoding: 'utf8' }).filter((path) =>
  path.endsWith('.resource.ts'),
);

async function exportingDefinitions() {
  const found: AnyResourceDefinition[] = [];
  for (const path of resourceFiles) {
    const exported: Record<string, unknown> = await import(`${modules}${path}`);
    for (const value of Object.values(exported)) {
      const definition = value as Partial<AnyResourceDefinition> | null;
      if (definition && typeof definition === 'object' && definition.name && definition.csv)
        found.push(definition as AnyResourceDefinition);
    }
  }
  return found;
}

describe('CSV headers in Thai', () => {
  it('exist for every column of every exported list and view', async () => {
    const definitions = await exportingDefinitions();
    expect(definitions.map((definition) => definition.name)).toContain('users');
    const exported: string[] = [];
    for (const definition of definitions) {
      const csv = definition.csv!;
      for (const [list, columns] of [
        [definition.name, csv.columns],
        ...Object.entries(csv.views ?? {}),
      ] as const) {
        exported.push(list);
        expect(Object.hasOwn(thaiColumnTitles, list), `${list} has Thai titles`).toBe(true);
        for (const column of columns)
          expect(columnTitle(list, column, 'th'), `${list}.${column.key}`).not.toBe(column.title);
      }
    }
    expect(exported.sort()).toEqual(Object.keys(thaiColumnTitles).sort());
  });
});
