// Console tests: lazy pages load through real dynamic imports, which on a busy machine take longer than
// Testing Library's default second to appear. The DOM matchers (toBeVisible, toHaveTextContent, …) come
// from jest-dom. A fake answer that broke its endpoint's contract fails the test that gave it.
import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { assertNoContractViolations } from './network.ts';

configure({ asyncUtilTimeout: 5000 });

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

afterEach(() => {
  assertNoContractViolations();
});
