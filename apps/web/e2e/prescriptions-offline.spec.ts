// The driver's delivery without a network (decision 046), on a phone (390×844) against the real server: the
// driver picks a prescription up (the command-line phone approves), the network goes (for the page and its
// service worker alike: support/network.ts), the driver marks it delivered (kept on the device, the card says so), reloads (the service worker opens the
// console with the last lists), the network comes back, the kept action is sent, and the server holds exactly
// one delivered transition, also after the same Idempotency-Key is sent once more.
/// <reference lib="dom" />
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  approve,
  call,
  expectNoSideScroll,
  issuedPrescription,
  PHONE,
  removePhones,
  setCustodyScene,
  signIn,
} from './support/custody.ts';
import { expect, test } from './support/test.ts';
import { goOffline, goOnline } from './support/network.ts';

test.describe.configure({ timeout: 240_000 });
test.afterAll(removePhones);

/** Where the screenshots of the offline console are also copied, when set (to look at them). */
const SCREENSHOTS = process.env.CAREPLANE_E2E_SCREENSHOTS;

async function screenshot(page: Page, name: string) {
  // The notices closed first: they would cover the banner. One at a time, the first each round: a notice may
  // leave on its own meanwhile (on a phone a new one takes the place of the passing ones), and a button taken
  // from a list made before it left would be waited for until the test's end.
  const closers = page.getByRole('button', { name: 'Close the notification' });
  await expect(async () => {
    if ((await closers.count()) > 0) await closers.first().click({ timeout: 2_000 });
    await expect(closers).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 40_000 });
  const file = test.info().outputPath(name);
  await page.screenshot({ path: file, fullPage: false });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
  if (SCREENSHOTS) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    copyFileSync(file, path.join(SCREENSHOTS, name));
  }
}

/** The Idempotency-Key the device keeps for its one waiting action (the outbox's IndexedDB record). */
const keptKeys = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const opened = indexedDB.open('careplane-offline');
        opened.onerror = () => reject(opened.error ?? new Error('IndexedDB'));
        opened.onsuccess = () => {
          const read = opened.result.transaction('outbox').objectStore('outbox').get('entries');
          read.onerror = () => reject(read.error ?? new Error('IndexedDB'));
          read.onsuccess = () =>
            resolve(((read.result as { key: string }[] | undefined) ?? []).map((entry) => entry.key));
        };
      }),
  );

test('offline, the driver marks delivered, reloads, comes back online, and the server has one delivered', async ({
  browser,
  request,
}) => {
  const admin = await signIn(browser, 'console.rx.offline.admin@careplane.local', /\/admin$/);
  const doctor = await signIn(browser, 'console.rx.offline.doctor@careplane.local', /\/account$/);
  const pharmacist = await signIn(browser, 'console.rx.offline.pharmacist@careplane.local', /\/account$/);
  // The only phone here that installs the console: its service worker opens the page offline.
  const driver = await signIn(browser, 'console.rx.offline.driver@careplane.local', /\/account$/, PHONE, {
    serviceWorkers: 'allow',
  });
  // The scene, through the API: a pharmacy, a courier company, the roles; then an issued prescription made ready.
  const scene = await setCustodyScene(
    request,
    { admin, doctor, pharmacist, driver },
    { name: 'Offline Test', street: 'Rama IV Rd' },
  );
  const id = await issuedPrescription(request, { admin, doctor }, scene, {
    name: 'Losartan',
    strength: '50 mg',
    quantity: 30,
    unit: 'tablets',
  });
  await call(request, pharmacist, 'POST', `/api/prescriptions/${id}/accept`, undefined, 200);
  await call(request, pharmacist, 'POST', `/api/prescriptions/${id}/mark-ready`, undefined, 200);

  // The driver's phone has the console's service worker once it has opened it online.
  const road = driver.page;
  await road.goto('/prescriptions');
  await expect
    .poll(() => road.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 40_000 })
    .toBe(true);
  const pickupCard = road.getByRole('listitem', { name: /Losartan/ });
  await pickupCard.getByRole('button', { name: 'Pick up' }).click();
  const pickup = road.getByTestId('signing-pickup');
  await expect(pickup).toContainText(/Approve on the phone · code [A-Z]{2} \d{2}/);
  await approve(driver, /code ([A-Z]{2} \d{2})/.exec((await pickup.textContent()) ?? '')?.[1] ?? '');
  await expect(road.getByText('Picked up: Losartan', { exact: false })).toBeVisible({ timeout: 40_000 });
  await road.getByRole('link', { name: /^Picked-up/ }).click();
  const card = road.getByRole('listitem', { name: /Losartan/ });
  await expect(card.getByRole('button', { name: 'Delivered' })).toBeVisible();
  // A thumb's targets on a touch screen: the phone number, the map, the details, the card's action and the top
  // bar's sign-out are 44 px tall or more.
  for (const target of [
    card.getByRole('button', { name: 'Details and history' }),
    card.getByRole('link', { name: /^Open map/ }).first(),
    card.getByRole('button', { name: 'Delivered' }),
    road.getByRole('button', { name: /^Disconnect/ }),
  ]) {
    expect((await target.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  }

  // No network: the delivery is kept on the device and the card and the banner say so.
  await goOffline(road.context());
  const banner = road.getByTestId('offline-banner');
  await expect(banner).toContainText('You are offline.');
  await card.getByRole('button', { name: 'Delivered' }).click();
  await road
    .getByRole('dialog', { name: 'Delivered to the recipient?' })
    .getByRole('button', { name: 'Delivered' })
    .click();
  await expect(card.getByTestId('kept-action')).toHaveText('Delivered — queued, will send when online');
  await expect(banner).toContainText('1 action waits to be sent.');
  await expectNoSideScroll(road);
  await screenshot(road, 'offline-queued-390.png');
  const [key] = await keptKeys(road);
  expect(key).toMatch(/^[0-9a-f-]{36}$/);

  // A reload without a network still opens the console, with the last list and the kept action.
  await road.reload();
  await expect(road.getByRole('heading', { level: 1, name: 'Picked-up prescriptions' })).toBeVisible();
  const reloaded = road.getByRole('listitem', { name: /Losartan/ });
  await expect(reloaded.getByTestId('kept-action')).toHaveText('Delivered — queued, will send when online');
  await expect(road.getByTestId('offline-banner')).toContainText('1 action waits to be sent.');
  await screenshot(road, 'offline-reloaded-390.png');
  // Signing actions wait for the network: nothing of the kind was sent meanwhile.
  const history = async () =>
    (
      await call<{ items: { action: string; at: string; changes: { performedAt?: string } | null }[] }>(
        request,
        admin,
        'GET',
        `/api/prescriptions/${id}/history`,
      )
    ).items.filter((item) => item.action === 'delivered');
  const tapped = Date.now();
  expect(await history()).toHaveLength(0);

  // The network is back: the kept action is sent, the list refreshes, the banner goes.
  await goOnline(road.context());
  await expect(road.getByText('Kept action sent: Delivered', { exact: false })).toBeVisible({
    timeout: 40_000,
  });
  await expect(road.getByText('No prescriptions here.')).toBeVisible({ timeout: 40_000 });
  await expect(road.getByTestId('offline-banner')).toHaveCount(0);
  expect(await keptKeys(road)).toEqual([]);
  const [delivered] = await history();
  // The custody record has when the driver tapped it (before the reload), not only when it arrived.
  const performedAt = Date.parse(delivered!.changes?.performedAt ?? '');
  expect(performedAt).toBeLessThan(tapped + 2_000);
  expect(performedAt).toBeLessThan(Date.parse(delivered!.at));

  // The same key again (a send whose answer was lost: the same action on the status it was taken on, kept a
  // little longer) answers as before and changes nothing.
  const again = await request.post(`/api/prescriptions/${id}/delivered`, {
    headers: { authorization: `Bearer ${await driver.token()}`, 'idempotency-key': key! },
    data: { expectedStatus: 'picked_up', keptForSeconds: 60 },
  });
  expect(again.status(), await again.text()).toBe(200);
  expect(again.headers()['idempotent-replayed']).toBe('true');
  expect(await history()).toHaveLength(1);
  expect((await call<{ status: string }>(request, admin, 'GET', `/api/prescriptions/${id}`)).status).toBe(
    'delivered',
  );
});

test('a reload without a network right after the first sign-in on a phone opens the console (decision 076)', async ({
  browser,
}) => {
  // The first page of this phone loaded before its service worker existed: neither the runtime settings nor the
  // account went through it. Once the worker takes control, the console asks its reads again through it.
  const phone = await signIn(browser, 'console.rx.offline.first@careplane.local', /\/account$/, PHONE, {
    serviceWorkers: 'allow',
  });
  const page = phone.page;
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 40_000 })
    .toBe(true);
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          // Kept under a key that names whom it was read for (decision 106).
          const kept = await caches.open('careplane-api');
          return (await kept.keys()).some((request) => new URL(request.url).pathname === '/api/users/me');
        }),
      { timeout: 40_000 },
    )
    .toBe(true);

  await goOffline(page.context());
  // The worker is cut off too: a read it answers from the network first, at an address it never kept, does not
  // reach the server (it would, through the worker, with the page alone offline).
  const probe = await page.evaluate(() =>
    fetch('/config.json?offline-probe=1').then(
      (answer) => answer.status,
      () => 'no network',
    ),
  );
  expect(probe).not.toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /^Test Person/ })).toBeVisible();
  await expect(page.getByText('could not start')).toHaveCount(0);
  await screenshot(page, 'offline-first-visit-reloaded-390.png');
  await goOnline(page.context());
});
