// The catalogs are complete: every namespace in both languages, the same keys, no empty text, the same
// placeholders, nothing left in English in Thai by mistake, and every static key the source passes to t()
// exists. The spec's quoted English texts (lib/i18n/spec-texts.ts) are not in catalogs at all.
import { describe, expect, it } from 'vitest';
import { specTexts } from '@/lib/i18n/spec-texts.ts';
import { allCatalogs, catalogFiles } from '@/test/i18n.ts';
import { catalogOf, namespaces } from './catalogs.ts';

type Tree = { readonly [key: string]: unknown };

/** Every leaf of a catalog as [dotted key, value]. */
function leaves(tree: unknown, prefix = ''): [string, unknown][] {
  if (typeof tree !== 'object' || tree === null) return [[prefix, tree]];
  return Object.entries(tree as Tree).flatMap(([key, value]) =>
    leaves(value, prefix ? `${prefix}.${key}` : key),
  );
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();

/**
 * Thai texts that may equal the English: names and codes that read the same in both (brand, units, formats).
 * Add a text here only when Thai readers really see it in Latin letters.
 */
const sameInBothLanguages = new Set(['Careplane', 'English', 'ไทย', 'ID', 'QR', 'CSV', 'PDF', 'UUID', 'GMT']);

const catalog = (language: string, namespace: string): Tree =>
  (allCatalogs[language]?.[namespace] ?? {}) as Tree;

describe('the catalogs', () => {
  it('are found for every namespace in both languages, and no file sits outside the layout', () => {
    expect(namespaces).toContain('common');
    expect(namespaces).toContain('kit');
    for (const path of Object.keys(catalogFiles)) expect(catalogOf(path), path).not.toBeNull();
    for (const namespace of namespaces) {
      expect(allCatalogs.en?.[namespace], `en/${namespace}`).toBeDefined();
      expect(allCatalogs.th?.[namespace], `th/${namespace}`).toBeDefined();
    }
  });

  it.each(namespaces)('%s: same keys in Thai and English, every text non-empty, same placeholders', (ns) => {
    const en = new Map(leaves(catalog('en', ns)));
    const th = new Map(leaves(catalog('th', ns)));
    expect([...th.keys()].sort(), `${ns}: Thai keys`).toEqual([...en.keys()].sort());
    for (const [key, english] of en) {
      const thai = th.get(key);
      expect(typeof english === 'string' && english.trim(), `en ${ns}:${key} is empty`).toBeTruthy();
      expect(typeof thai === 'string' && thai.trim(), `th ${ns}:${key} is missing or empty`).toBeTruthy();
      expect(placeholders(String(thai)), `th ${ns}:${key} placeholders`).toEqual(
        placeholders(String(english)),
      );
      // A Thai text equal to its English one was copied, not translated (placeholders alone are fine).
      const words = String(english)
        .replace(/\{\{[^}]*\}\}/g, '')
        .replace(/^[\s\p{P}]+$/u, '')
        .trim();
      if (thai === english && words && !sameInBothLanguages.has(words)) {
        expect.fail(`th ${ns}:${key} is still English: "${String(english)}"`);
      }
    }
  });

  // <Trans> reads a catalog's tags as HTML, where a void element (<link>, <br>, <img>, …) has no content: the
  // text between <link> and </link> vanished and left an empty, unnamed link on the page.
  it.each(namespaces)('%s: no text wraps words in a tag HTML keeps empty', (ns) => {
    const voidElements = /<(area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr)>/;
    for (const language of ['en', 'th']) {
      for (const [key, text] of leaves(catalog(language, ns))) {
        expect(typeof text === 'string' && voidElements.test(text), `${language} ${ns}:${key}`).toBe(false);
      }
    }
  });

  it('hold none of the texts the spec quotes: those stay in English, in spec-texts.ts', () => {
    const quoted = new Set<string>(Object.values(specTexts));
    for (const ns of namespaces) {
      for (const [key, text] of leaves(catalog('en', ns))) {
        expect(quoted.has(String(text)), `${ns}:${key} is a spec text`).toBe(false);
      }
    }
  });
});

// The console's source, read as text: t('key') and i18next.t('ns:key') with a literal key must name a text
// that exists (tsc checks the same through the typed keys; this catches what a cast or `any` would hide).
const sources = import.meta.glob<string>(
  ['/src/**/*.{ts,tsx}', '!/src/**/*.test.{ts,tsx}', '!/src/test/**'],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
);

/**
 * The namespaces a file reads by default: those of its useTranslation calls and of the `TFunction<'ns'>` it is
 * given (a function that words something for a component), else common.
 */
function namespacesOf(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(/useTranslation\(\s*(\[[^\]]*\]|'[^']*'|"[^"]*")?/g)) {
    const arg = match[1];
    if (!arg) found.add('common');
    else for (const name of arg.matchAll(/['"]([\w-]+)['"]/g)) if (name[1]) found.add(name[1]);
  }
  for (const match of source.matchAll(/TFunction<\s*['"]([\w-]+)['"]/g)) if (match[1]) found.add(match[1]);
  return found.size ? [...found] : ['common'];
}

/** Does `ns:key` name a text (or a plural set of texts) in English? */
function exists(namespace: string, key: string): boolean {
  const all = new Set(leaves(catalog('en', namespace)).map(([path]) => path));
  return all.has(key) || all.has(`${key}_other`);
}

/** Every literal key a source passes to t(), with the namespace it resolves in. */
function usedKeys(text: string): { key: string; candidates: [string, string][] }[] {
  // Comments may show examples of keys that do not exist.
  const source = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const defaults = namespacesOf(source);
  const found = [];
  for (const match of source.matchAll(/\bt\(\s*(['"`])([^'"`$]+?)\1\s*[,)]/g)) {
    const key = match[2] ?? '';
    const colon = key.indexOf(':');
    const candidates: [string, string][] =
      colon > 0
        ? [[key.slice(0, colon), key.slice(colon + 1)]]
        : defaults.map((namespace): [string, string] => [namespace, key]);
    found.push({ key, candidates });
  }
  return found;
}

describe('the keys the source uses', () => {
  it('are found by the scan (the scan itself works)', () => {
    const keys = usedKeys(
      `const { t } = useTranslation('kit'); t('list.search'); i18next.t('common:language.label');`,
    );
    expect(keys.map((entry) => entry.key)).toEqual(['list.search', 'common:language.label']);
    expect(keys.every((entry) => entry.candidates.some(([ns, key]) => exists(ns, key)))).toBe(true);
    const given = usedKeys(`export const f = (t: TFunction<'kit'>) => t('list.search');`);
    expect(given[0]?.candidates).toEqual([['kit', 'list.search']]);
    const missing = usedKeys(`const { t } = useTranslation('kit'); t('list.nothingLikeThis');`);
    expect(missing[0]?.candidates.some(([ns, key]) => exists(ns, key))).toBe(false);
  });

  it('exist in the catalogs', () => {
    const missing: string[] = [];
    for (const [path, source] of Object.entries(sources)) {
      if (path.includes('/i18n/')) continue;
      for (const { key, candidates } of usedKeys(source)) {
        if (!candidates.some(([namespace, name]) => exists(namespace, name))) missing.push(`${path}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
