// What the custody specs share (prescriptions.spec.ts, prescriptions-offline*.spec.ts): the command-line phone
// (`careplane authenticator`), a party signed in by user ID in a browser of its own, and API calls made with a
// party's token.
/// <reference lib="dom" />
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser, BrowserContextOptions, Page } from '@playwright/test';
import { careplane, issuedIdentity, shownCode } from './cli-authenticator.ts';
import { expect } from './test.ts';

export const DESKTOP = { width: 1440, height: 900 };
/** The pharmacy and the road work on phones: every control must be on screen at this width. */
export const PHONE = { width: 390, height: 844 };

const folders: string[] = [];
/** Removes the phones' key stores the parties of a spec made (its afterAll). */
export function removePhones() {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

export interface Party {
  page: Page;
  store: string;
  username: string;
  token: () => Promise<string>;
}

/** The phone approves the party's request that shows `code`, the code the console shows beside it. */
export async function approve(party: Pick<Party, 'store' | 'username'>, code: string) {
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
  expect(answer.code, answer.out + answer.err).toBe(0);
  expect(answer.out).toContain(`Binding message: ${code}\n`);
}

/** Nothing wider than the screen: no control pushed off to the side. */
export async function expectNoSideScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.innerWidth,
  }));
  expect(widths.page, 'the page is wider than the screen').toBeLessThanOrEqual(widths.screen);
}

/** A browser of its own, a phone of its own (a key store), signed in by user ID. */
export async function signIn(
  browser: Browser,
  username: string,
  landing: RegExp,
  viewport: { width: number; height: number } = DESKTOP,
  options: BrowserContextOptions = {},
): Promise<Party> {
  const identity = issuedIdentity(username);
  const folder = mkdtempSync(path.join(tmpdir(), 'careplane-e2e-rx-'));
  folders.push(folder);
  const store = path.join(folder, 'authenticator.json');
  const enrolled = await careplane(['authenticator', 'enroll', '--store', store, identity.link]);
  expect(enrolled.code, enrolled.out + enrolled.err).toBe(0);
  const context = await browser.newContext({ viewport, hasTouch: viewport === PHONE, ...options });
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

export async function call<T>(
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

/**
 * The scene both custody specs start from, set through the API: everyone's user id, a pharmacy employing the
 * pharmacist and a courier company (both at `street`, named after `name`), the doctor, pharmacist and courier
 * roles, and a wait until the server (which reads roles through a short cache) sees the doctor as one.
 */
export async function setCustodyScene(
  request: APIRequestContext,
  parties: { admin: Party; doctor: Party; pharmacist: Party; driver: Party },
  { name, street }: { name: string; street: string },
) {
  const { admin, doctor, pharmacist, driver } = parties;
  const me = async (party: Party) => (await call<{ id: string }>(request, party, 'GET', '/api/users/me')).id;
  const [adminId, doctorId, pharmacistId, driverId] = await Promise.all(
    [admin, doctor, pharmacist, driver].map(me),
  );
  const provider = (title: string, type: string) =>
    call<{ id: string }>(request, admin, 'POST', '/api/service-providers', {
      title,
      type,
      address: { street, city: 'Bangkok', country: 'TH' },
    });
  const pharmacy = await provider(`${name} Pharmacy`, 'pharmacy');
  const couriers = await provider(`${name} Couriers`, 'courier');
  await call(request, admin, 'PATCH', `/api/users/${doctorId}`, { localRoles: ['doctor'] });
  await call(request, admin, 'PATCH', `/api/users/${pharmacistId}`, {
    localRoles: ['pharmacist'],
    employers: [pharmacy.id],
  });
  await call(request, admin, 'PATCH', `/api/users/${driverId}`, { localRoles: ['courier'] });
  await expect
    .poll(
      async () =>
        (await call<{ localRoles: string[] }>(request, doctor, 'GET', '/api/prescriptions/viewer'))
          .localRoles,
      { timeout: 40_000 },
    )
    .toEqual(['doctor']);
  return { adminId, doctorId, pharmacistId, driverId, pharmacy, couriers };
}

/**
 * A prescription of the scene written by the doctor for the admin, with the scene's pharmacy, couriers and driver,
 * issued through the doctor's phone (the command-line authenticator approves) and seen by the admin as issued.
 */
export async function issuedPrescription(
  request: APIRequestContext,
  { admin, doctor }: { admin: Party; doctor: Party },
  scene: Awaited<ReturnType<typeof setCustodyScene>>,
  item: { name: string; strength: string; quantity: number; unit: string },
): Promise<string> {
  const { id } = await call<{ id: string }>(request, doctor, 'POST', '/api/prescriptions', {
    issuer: scene.doctorId,
    supplier: scene.pharmacy.id,
    recipient: scene.adminId,
    shipper: scene.couriers.id,
    shipperDriver: scene.driverId,
    content: [item],
  });
  const issuing = await call<{ bindingMessage: string }>(
    request,
    doctor,
    'POST',
    `/api/prescriptions/${id}/issue`,
    undefined,
    202,
  );
  await approve(doctor, issuing.bindingMessage);
  await expect
    .poll(
      async () => (await call<{ status: string }>(request, admin, 'GET', `/api/prescriptions/${id}`)).status,
      {
        timeout: 40_000,
      },
    )
    .toBe('issued');
  return id;
}
