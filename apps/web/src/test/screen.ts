// The screen's width as the console's media queries read it (lib/screen-widths.ts: a phone is `max-width`, a
// wider screen `min-width`), for a test: a phone's, or wider. Restored by vi.restoreAllMocks.
import { vi } from 'vitest';

export const onScreen = (phone: boolean) =>
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: phone === query.includes('max-width'),
        media: query,
        onchange: null,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        addListener: () => undefined,
        removeListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
