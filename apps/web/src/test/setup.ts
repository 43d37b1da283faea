// Console tests: lazy pages load through real dynamic imports, which on a busy machine take longer than
// Testing Library's default second to appear. The wait is 15 s: on a two-core machine with half its time stolen
// by its host, while the server's tests run beside these, a lazy page and a form's round trip took over 5 s. The DOM matchers (toBeVisible, toHaveTextContent, …) come
// from jest-dom. A fake answer that broke its endpoint's contract fails the test that gave it, and notices do not
// outlive their test. Every
// catalog is loaded at once, in English.
import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { configure } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach } from 'vitest';
import { initI18nWith } from '@/app/i18n/i18n.ts';
import { allCatalogs } from './i18n.ts';
import { assertNoContractViolations } from './network.ts';

configure({ asyncUtilTimeout: 15_000 });

// The console speaks English in tests (their queries read English texts); a test that switches to Thai is
// switched back after it.
await initI18nWith('en', allCatalogs);

// happy-dom has no document.fonts, which Mantine's autosizing textarea listens to.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: {
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      ready: Promise.resolve(),
    },
  });
}

afterEach(async () => {
  assertNoContractViolations();
  // Notices that stay until closed live in Mantine's one store: each test starts without the last one's.
  notifications.clean();
  if (i18next.language !== 'en') await i18next.changeLanguage('en');
});
