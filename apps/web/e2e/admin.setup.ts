// Signs the admin of the admin specs in once per run and keeps the browser state for every worker.
import { test } from './support/test.ts';
import { ADMIN_USERNAME, adminStatePath } from './support/admin.ts';
import { issuedIdentity, signInWithCliAuthenticator } from './support/cli-authenticator.ts';

test.describe.configure({ timeout: 150_000 });

test('the admin signs in once for the admin specs', async ({ page }) => {
  await signInWithCliAuthenticator(page, issuedIdentity(ADMIN_USERNAME));
  await page.context().storageState({ path: adminStatePath() });
});
