// What the screen needs besides texts arrives with a language's catalogs: i18next turns the screen to a language
// once its catalogs are read, so the date pickers' Thai names are there for the first Thai render.
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withCatalogs } from '@/lib/i18n/language.ts';
import { catalogBackend, initI18n } from './i18n.ts';

/** Reads one catalog through the console's backend; resolves with its texts. */
const read = (language: string, namespace: string) =>
  new Promise<unknown>((resolve, reject) => {
    catalogBackend.read(language, namespace, (error, texts) =>
      error ? reject(new Error(String(error))) : resolve(texts),
    );
  });

const deferred = () => {
  let resolve = (_value?: unknown) => undefined as void;
  const promise = new Promise((yes) => {
    resolve = yes;
  });
  return { promise, resolve };
};

describe('a language’s catalogs and what comes with them', () => {
  it('hand over a Thai catalog only once its companions have loaded; English does not wait for them', async () => {
    const names = deferred();
    const stop = withCatalogs('th', () => names.promise);
    try {
      let texts: unknown;
      const reading = read('th', 'common').then((result) => (texts = result));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(texts).toBeUndefined();
      expect(await read('en', 'common')).toMatchObject({});
      names.resolve();
      await reading;
      expect(texts).toMatchObject({});
    } finally {
      stop();
    }
  });

  it('hand over a Thai catalog once the Thai font has loaded, where the page can load fonts', async () => {
    const font = deferred();
    // The test DOM's FontFaceSet loads nothing: stand in for the browser's.
    const fonts = document.fonts as unknown as { load?: unknown };
    const before = fonts.load;
    const load = vi.fn(() => font.promise);
    fonts.load = load;
    try {
      let texts: unknown;
      const reading = read('th', 'prescriptions').then((result) => (texts = result));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(load).toHaveBeenCalledWith('700 1em Sarabun', 'ก');
      expect(texts).toBeUndefined();
      font.resolve();
      await reading;
      expect(texts).toMatchObject({});
    } finally {
      fonts.load = before;
    }
  });

  it('hand over the texts even when a companion fails', async () => {
    const stop = withCatalogs('th', () => Promise.reject(new Error('chunk gone')));
    try {
      expect(await read('th', 'kit')).toMatchObject({});
    } finally {
      stop();
    }
  });

  it('bring dayjs’s Thai month and weekday names once the signed-in pages are loaded', async () => {
    expect(dayjs.Ls.th).toBeUndefined();
    await import('../dates-locale.tsx');
    await read('th', 'common');
    expect(dayjs('2026-01-05').locale('th').format('dd MMMM')).toBe('จ. มกราคม');
  });
});

// Thai shows in the English console too (names in the records, ไทย in the language switch): text painted in Thai
// before the font arrived stayed as boxes in Chromium. This one starts i18next afresh (last in the file).
describe('the start of the console', () => {
  const fonts = document.fonts as unknown as { load?: unknown };
  const before = fonts.load;
  afterEach(() => {
    fonts.load = before;
    vi.useRealTimers();
  });

  it.each(['en', 'th'] as const)(
    'in %s fetches the Thai font and waits for it before the first render',
    async (language) => {
      const font = deferred();
      const load = vi.fn(() => font.promise);
      fonts.load = load;
      let started = false;
      const starting = initI18n(language).then(() => (started = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(load).toHaveBeenCalledWith('400 1em Sarabun', 'ก');
      expect(load).toHaveBeenCalledWith('700 1em Sarabun', 'ก');
      expect(started).toBe(false);
      font.resolve();
      await starting;
      expect(started).toBe(true);
    },
  );

  it('waits at most a second for the font', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fonts.load = vi.fn(() => new Promise(() => undefined));
    let started = false;
    const starting = initI18n('en').then(() => (started = true));
    await vi.advanceTimersByTimeAsync(500);
    expect(started).toBe(false);
    await vi.advanceTimersByTimeAsync(600);
    await starting;
    expect(started).toBe(true);
  });
});
