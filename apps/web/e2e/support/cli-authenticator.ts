// The command-line authenticator (`careplane authenticator enroll|approve`) as the phone of a test identity,
// approving the request whose code the console shows, and a sign-in by user identifier that it approves.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';

const repo = path.resolve(import.meta.dirname, '../../../..');
const CLI = path.join(repo, 'apps/server/bin/careplane.mjs');

export interface IssuedIdentity {
  username: string;
  firstName: string;
  lastName: string;
  roles: string[];
  code: string;
  link: string;
}

interface IdentityFile extends Omit<IssuedIdentity, 'code' | 'link'> {
  enrollments: Pick<IssuedIdentity, 'code' | 'link'>[];
}

/**
 * An identity scripts/e2e-server.mjs made for this run, with the one-time enrollment link of this try of the
 * test: a retried test enrolls its fresh phone with a code the failed try did not spend.
 */
export function issuedIdentity(username: string, port = process.env.CAREPLANE_E2E_PORT): IssuedIdentity {
  const file = path.join(tmpdir(), `careplane-e2e-${port}-identities.json`);
  const found = (JSON.parse(readFileSync(file, 'utf8')) as IdentityFile[]).find(
    (identity) => identity.username === username,
  );
  if (!found) throw new Error(`The e2e server made no identity ${username}`);
  const { enrollments, ...identity } = found;
  const enrollment = enrollments[test.info().retry];
  if (!enrollment) throw new Error(`The e2e server made no enrollment code for try ${test.info().retry + 1}`);
  return { ...identity, ...enrollment };
}

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/** Runs `careplane <args>` as a person at a terminal; inside a test, its transcript is attached to the report. */
export function careplane(args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: repo,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      // Enrollment links carry their one-time code after '#': they stay out of the report.
      const command = `careplane ${args.filter((arg) => !arg.includes('#')).join(' ')}`;
      void test
        .info()
        .attach(command.slice(0, 80), { body: `$ ${command}\n${out}${err}`, contentType: 'text/plain' })
        .finally(() => resolve({ code, out, err }));
    });
  });
}

/** The code the console shows beside a request (two letters and two digits), read off the screen. */
export async function shownCode(code: Locator): Promise<string> {
  await expect(code).toHaveText(/^[A-Z]{2} \d{2}$/);
  return (await code.textContent()) ?? '';
}

/**
 * Approves on the "phone" the request of the identity that shows `code`, as a person who reads the code off
 * the console types it; fails the test unless exactly that request was approved.
 */
export async function approveOnCli(store: string, username: string, code: string) {
  const answer = await careplane([
    'authenticator',
    'approve',
    '--store',
    store,
    '--username',
    username,
    '--code',
    code,
    '--wait',
    '30',
  ]);
  expect(answer.code, answer.out + answer.err).toBe(0);
  expect(answer.out).toContain(`Binding message: ${code}\n`);
  expect(answer.out).toContain('Approved.');
  return answer;
}

/**
 * Signs the page in as the identity: enrolls a fresh key store, asks by user ID, approves on the "phone" the
 * request with the code the console shows. `landing` is where the console then goes (the admin area for an
 * admin, the account page for others).
 */
export async function signInWithCliAuthenticator(page: Page, identity: IssuedIdentity, landing = /\/admin$/) {
  const store = path.join(mkdtempSync(path.join(tmpdir(), 'careplane-e2e-admin-')), 'authenticator.json');
  const enrolled = await careplane(['authenticator', 'enroll', '--store', store, identity.link]);
  expect(enrolled.code, enrolled.out + enrolled.err).toBe(0);
  await page.goto('/');
  await page.getByRole('tab', { name: 'User ID' }).click();
  await page.getByRole('textbox', { name: /User ID/ }).fill(identity.username);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await approveOnCli(store, identity.username, await shownCode(page.getByTestId('binding-message')));
  await expect(page).toHaveURL(landing);
}
