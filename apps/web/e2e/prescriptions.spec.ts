// The custody chain in Chromium against the real server: a doctor issues a prescription from /prescriptions
// and closes the page (the command-line authenticator approves the signature; the server completes it, nobody
// polls), the pharmacist accepts it and marks it ready in /pharmacy, the driver reaches /prescriptions from
// the account page, picks it up (approved on the "phone") and delivers it, each list refreshing by itself, and
// the admin downloads the signed prescription.
/// <reference lib="dom" />
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { issuedIdentity, shownCode } from './support/cli-authenticator.ts';
import { expect, test } from './support/test.ts';

const repo = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(repo, 'apps/server/bin/careplane.mjs');

// Four sign-ins and two signatures through a command-line phone on a busy machine.
test.describe.configure({ timeout: 240_000 });

function careplane(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: repo, env: process.env });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const folders: string[] = [];
test.afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

interface Party {
  page: Page;
  store: string;
  username: string;
  token: () => Promise<string>;
}

/** The phone approves the party's request that shows `code`, the code the console shows beside it. */
async function approve(party: Party, code: string) {
  const answer = await careplane([
    'authenticator',
    'approve',
    '--store',
    party.store,
    '--username',
    party.username,
    '--code',
    code,
    '--wait',
    '30',
  ]);
  expect(answer.code, answer.out).toBe(0);
  expect(answer.out).toContain(`Binding message: ${code}\n`);
}

const DESKTOP = { width: 1440, height: 900 };
/** The pharmacy and the road work on phones: every control must be on screen at this width. */
const PHONE = { width: 390, height: 844 };

/** Nothing wider than the screen: no control pushed off to the side. */
async function expectNoSideScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.innerWidth,
  }));
  expect(widths.page, 'the page is wider than the screen').toBeLessThanOrEqual(widths.screen);
}

/** A browser of its own, a phone of its own (a key store), signed in by user ID. */
async function signIn(
  browser: Browser,
  username: string,
  landing: RegExp,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<Party> {
  const identity = issuedIdentity(username);
  const folder = mkdtempSync(path.join(tmpdir(), 'careplane-e2e-rx-'));
  folders.push(folder);
  const store = path.join(folder, 'authenticator.json');
  const enrolled = await careplane(['authenticator', 'enroll', '--store', store, identity.link]);
  expect(enrolled.code, enrolled.out).toBe(0);
  const context = await browser.newContext({ viewport, hasTouch: viewport === PHONE });
  const page = await context.newPage();
  const party: Party = {
    page,
    store,
    username,
    token: async () =>
      page.evaluate(
        () =>
          (JSON.parse(localStorage.getItem('careplane.session') ?? '{}') as { accessToken: string })
            .accessToken,
      ),
  };
  await page.goto('/');
  await page.getByRole('tab', { name: 'User ID' }).click();
  await page.getByRole('textbox', { name: /User ID/ }).fill(username);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await approve(party, await shownCode(page.getByTestId('binding-message')));
  await expect(page).toHaveURL(landing);
  return party;
}

async function call<T>(
  request: APIRequestContext,
  party: Party,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  data?: object,
  status = method === 'POST' ? 201 : 200,
): Promise<T> {
  const response = await request.fetch(url, {
    method,
    headers: { authorization: `Bearer ${await party.token()}` },
    ...(data ? { data } : {}),
  });
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

test('a doctor issues, the pharmacist prepares, the driver picks up and delivers, the admin downloads', async ({
  browser,
  request,
}) => {
  const admin = await signIn(browser, 'console.rx.admin@careplane.local', /\/admin$/);
  const doctor = await signIn(browser, 'console.rx.doctor@careplane.local', /\/account$/);
  const pharmacist = await signIn(browser, 'console.rx.pharmacist@careplane.local', /\/account$/, PHONE);
  const driver = await signIn(browser, 'console.rx.driver@careplane.local', /\/account$/, PHONE);
  const me = async (party: Party) => (await call<{ id: string }>(request, party, 'GET', '/api/users/me')).id;
  const [adminId, doctorId, pharmacistId, driverId] = await Promise.all(
    [admin, doctor, pharmacist, driver].map(me),
  );

  // The admin sets the scene: a pharmacy employing the pharmacist, a courier company, everyone's role.
  const provider = (title: string, type: string) =>
    call<{ id: string }>(request, admin, 'POST', '/api/service-providers', {
      title,
      type,
      address: { street: 'Charoen Krung Rd', city: 'Bangkok', country: 'TH' },
    });
  const pharmacy = await provider('Browser Test Pharmacy', 'pharmacy');
  const couriers = await provider('Browser Test Couriers', 'courier');
  await call(request, admin, 'PATCH', `/api/users/${doctorId}`, { localRoles: ['doctor'] });
  await call(request, admin, 'PATCH', `/api/users/${pharmacistId}`, {
    localRoles: ['pharmacist'],
    employers: [pharmacy.id],
  });
  await call(request, admin, 'PATCH', `/api/users/${driverId}`, { localRoles: ['courier'] });
  // The server reads roles through a short cache: wait until the doctor is one.
  await expect
    .poll(
      async () =>
        (await call<{ localRoles: string[] }>(request, doctor, 'GET', '/api/prescriptions/viewer'))
          .localRoles,
      {
        timeout: 20_000,
      },
    )
    .toEqual(['doctor']);

  // The doctor submits it, then issues it from the console; the phone signs the generated prescription.
  const prescription = await call<{ id: string; status: string }>(
    request,
    doctor,
    'POST',
    '/api/prescriptions',
    {
      issuer: doctorId,
      supplier: pharmacy.id,
      recipient: adminId,
      shipper: couriers.id,
      shipperDriver: driverId,
      content: [{ name: 'Metformin', strength: '500 mg', quantity: 60, unit: 'tablets' }],
    },
  );
  expect(prescription.status).toBe('new');
  const desk = doctor.page;
  await desk.goto('/prescriptions');
  await desk
    .getByRole('list', { name: 'Waiting prescriptions' })
    .getByRole('listitem', { name: /Metformin/ })
    .getByRole('button', { name: 'Issue' })
    .click();
  const issuing = desk.getByTestId('signing-issue');
  await expect(issuing).toContainText(/Approve on the phone · code [A-Z]{2} \d{2}/);
  const issueCode = /code ([A-Z]{2} \d{2})/.exec((await issuing.textContent()) ?? '')?.[1] ?? '';
  // The doctor leaves before the phone answers: from here on nobody looks at the signing request.
  await desk.context().close();
  await approve(doctor, issueCode);

  // The pharmacist accepts and marks it ready in the pharmacy area.
  const pharmacy$ = pharmacist.page;
  await pharmacy$.goto('/pharmacy');
  const waiting = pharmacy$.getByRole('list', { name: 'Waiting prescriptions' });
  const card = waiting.getByRole('listitem', { name: /Metformin/ });
  await expect(card.getByRole('button', { name: 'Accept' })).toBeInViewport();
  await expectNoSideScroll(pharmacy$);
  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(pharmacy$.getByText('Accepted: Metformin', { exact: false })).toBeVisible();
  await card.getByRole('button', { name: 'Mark ready' }).click();
  await expect(pharmacy$.getByText('No prescriptions here.')).toBeVisible();
  await expect(pharmacy$.getByText('Marked ready: Metformin', { exact: false })).toBeVisible();
  await pharmacy$.getByRole('link', { name: /^Ready/ }).click();
  await expect(
    pharmacy$.getByRole('list', { name: 'Ready prescriptions' }).getByText(/Metformin/),
  ).toBeVisible();
  await expectNoSideScroll(pharmacy$);

  // The driver finds the pickups on the account page, picks it up (the phone signs the pickup receipt) and
  // delivers it.
  const road = driver.page;
  await road.goto('/account');
  await road.getByRole('link', { name: 'Go to your pickups and deliveries' }).click();
  await expect(road).toHaveURL(/\/prescriptions$/);
  const pickupCard = road.getByRole('listitem', { name: /Metformin/ });
  await expect(pickupCard.getByRole('button', { name: 'Pick up' })).toBeInViewport();
  await expectNoSideScroll(road);
  await pickupCard.getByRole('button', { name: 'Pick up' }).click();
  // The button shows the request and its code until the phone answers; the phone answers that code.
  const pickup = road.getByTestId('signing-pickup');
  await expect(pickup).toContainText(/Approve on the phone · code [A-Z]{2} \d{2}/);
  const pickupCode = /code ([A-Z]{2} \d{2})/.exec((await pickup.textContent()) ?? '')?.[1] ?? '';
  await approve(driver, pickupCode);
  await expect(road.getByText('No prescriptions here.')).toBeVisible({ timeout: 20_000 });
  await expect(road.getByText('Picked up: Metformin', { exact: false })).toBeVisible();
  await road.getByRole('link', { name: /^Picked-up/ }).click();
  const deliveryCard = road.getByRole('listitem', { name: /Metformin/ });
  await expect(deliveryCard.getByRole('button', { name: 'Delivered' })).toBeInViewport();
  await expectNoSideScroll(road);
  await deliveryCard.getByRole('button', { name: 'Delivered' }).click();
  await expect(road.getByText('No prescriptions here.')).toBeVisible();
  await expect(road.getByText('Marked delivered: Metformin', { exact: false })).toBeVisible();

  // The admin downloads the signed prescription from its page.
  await admin.page.goto(`/admin/prescriptions/${prescription.id}`);
  await expect(admin.page.getByText('delivered').first()).toBeVisible();
  const [download] = await Promise.all([
    admin.page.waitForEvent('download'),
    admin.page.getByRole('button', { name: 'Download signed document' }).first().click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^document \d+\.pdf$/);
});
