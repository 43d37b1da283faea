// The DOM matchers (toBeVisible, toHaveTextContent, …) come from jest-dom; each test starts on an empty page.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
});
