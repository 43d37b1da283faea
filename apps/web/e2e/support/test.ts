// The test and expect every spec uses: Playwright's, plus a guard that fails a test when the browser reports a
// Content Security Policy violation on any page of its context (the server's CSP, decision 022, must never
// get in the console's or the authenticator's way).
import { test as base, expect } from '@playwright/test';

export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ context }, use) => {
      const found: string[] = [];
      context.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) found.push(message.text());
      });
      context.on('weberror', (error) => {
        if (/Content Security Policy/i.test(error.error().message)) found.push(error.error().message);
      });
      await use(found);
      expect(found, 'Content Security Policy violations reported by the browser').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
export type { Locator, Page } from '@playwright/test';
