// The screen's width as the console's media queries read it (lib/screen-widths.ts: a phone is `max-width`, a
// wider screen `min-width`), for a test: a phone's, or wider; and whether a finger points (`pointer: coarse`).
// Restored by vi.restoreAllMocks.
import { vi } from 'vitest';

export const onScreen = (phone: boolean, { touch = false }: { touch?: boolean } = {}) =>
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        // A finger (`pointer: coarse`) only when `touch`; the width as `phone` says.
        matches: query.includes('pointer:')
          ? touch === query.includes('coarse')
          : phone === query.includes('max-width'),
        media: query,
        onchange: null,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        addListener: () => undefined,
        removeListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
