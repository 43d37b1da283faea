// Documents in Chromium against the real server: a signed-in user uploads a PDF, asks for a signature, the
// command-line authenticator (the phone) approves it by the code the page shows, the page turns to signed
// without a reload, the signed file downloads, and a signed-out visitor verifies it on the public page.
// Screenshots at desktop and phone widths along the way.
/// <reference lib="dom" />
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { careplane, issuedIdentity } from './support/cli-authenticator.ts';
import { expect, test, type Page } from './support/test.ts';

const baseUrl = `http://127.0.0.1:${process.env.CAREPLANE_E2E_PORT}`;
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

// The authenticator starts through tsx on a busy machine; a signature waits for it twice.
test.describe.configure({ timeout: 180_000 });

const folders: string[] = [];
test.afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const scratch = () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'careplane-e2e-documents-'));
  folders.push(folder);
  return folder;
};

async function samplePdf(title: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595.28, 841.89]);
  page.drawText(title, { x: 56, y: 770, size: 20, font });
  page.drawText('Visits daily at 08:00 and 18:00.', { x: 56, y: 730, size: 11, font });
  return Buffer.from(await doc.save());
}

async function shoot(page: Page, name: string) {
  for (const [label, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await page.screenshot({ path: test.info().outputPath(`${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

test('upload, sign on the phone, see it signed live, download, and verify it signed out', async ({
  page,
  browser,
}) => {
  const me = issuedIdentity('console.documents@careplane.local');
  const folder = scratch();
  const store = path.join(folder, 'authenticator.json');
  expect((await careplane(['authenticator', 'enroll', '--store', store, me.link])).code).toBe(0);

  // Sign in by user ID; the command-line authenticator approves the request with the code the console shows.
  await page.setViewportSize(DESKTOP);
  await page.goto(`${baseUrl}/`);
  await page.getByRole('tab', { name: 'User ID' }).click();
  await page.getByRole('textbox', { name: /User ID/ }).fill(me.username);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const signInCode = page.getByTestId('binding-message');
  await expect(signInCode).toHaveText(/^[A-Z]{2} \d{2}$/);
  const signInApproved = await careplane([
    'authenticator',
    'approve',
    '--store',
    store,
    '--username',
    me.username,
    '--code',
    (await signInCode.textContent()) ?? '',
    '--wait',
    '30',
  ]);
  expect(signInApproved.code, signInApproved.err).toBe(0);
  await expect(page).toHaveURL(`${baseUrl}/account`);

  // From the account page to the Documents area, then upload.
  await page.getByRole('link', { name: /Your documents/ }).click();
  await expect(page).toHaveURL(`${baseUrl}/documents`);
  await expect(page.getByText('You have no documents yet. Upload a PDF above.')).toBeVisible();
  await page.getByRole('button', { name: 'Upload a PDF' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill('Care plan for the browser test');
  const pdfFile = path.join(folder, 'care-plan.pdf');
  writeFileSync(pdfFile, await samplePdf('Care plan for the browser test'));
  await page.getByTestId('pdf-dropzone').locator('input[type="file"]').setInputFiles(pdfFile);
  await expect(page.getByRole('heading', { name: 'Care plan for the browser test' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${baseUrl}/documents/[0-9a-f-]{36}$`));
  const fingerprint = (await page.getByTestId('document-fingerprint').textContent()) ?? '';
  expect(fingerprint).toMatch(/^[0-9a-f]{8}…[0-9a-f]{8}$/);
  await expect(page.getByTestId('document-state')).toHaveText('Not signed');
  await shoot(page, 'document-uploaded');

  // Ask for the signature; the phone (CLI), given the code the console shows, shows the document and its
  // fingerprint, and approves.
  await page.getByRole('button', { name: 'Sign with my phone' }).click();
  const binding = page.getByTestId('signing-binding-message');
  await expect(binding).toHaveText(/^[A-Z]{2} \d{2}$/);
  const shown = (await binding.textContent()) ?? '';
  // The wait names the same code, at full contrast (not a disabled button).
  await expect(page.getByTestId('signing-state')).toContainText(`Waiting for your phone · code ${shown}`);
  await page.screenshot({ path: test.info().outputPath('signing-waiting-desktop.png'), fullPage: true });
  const phone = await careplane([
    'authenticator',
    'approve',
    '--store',
    store,
    '--username',
    me.username,
    '--code',
    shown,
    '--wait',
    '30',
  ]);
  expect(phone.code, phone.err).toBe(0);
  expect(phone.out).toContain('Action: document.sign');
  expect(phone.out).toContain('Document: Care plan for the browser test');
  expect(phone.out).toContain(`File SHA-256: ${fingerprint} (compare with the console`);
  expect(phone.out).toContain(`Binding message: ${shown}\n`);
  expect(phone.out).toContain('Approved.');

  // Signed, without a reload.
  await expect(page.getByTestId('signed-by-me')).toBeVisible({ timeout: 40_000 });
  await expect(page.getByTestId('document-state')).toHaveText('Signed');
  await expect(page.getByTestId('signatures')).toContainText(`${me.firstName} ${me.lastName}`);
  await shoot(page, 'document-signed');

  // Download the signed PDF under the server's name.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the signed PDF' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^document \d{13}\.pdf$/);
  const signedFile = path.join(folder, 'signed.pdf');
  await download.saveAs(signedFile);
  expect(readFileSync(signedFile).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The list shows it signed.
  await page.getByRole('link', { name: 'All documents' }).click();
  await expect(page.getByRole('list', { name: 'My documents' }).getByText('Signed')).toBeVisible();
  await shoot(page, 'documents-list');

  // A visitor who is not signed in verifies the downloaded file from the landing page.
  const visitor = await browser.newContext({ viewport: DESKTOP });
  const anonymous = await visitor.newPage();
  await anonymous.goto(`${baseUrl}/`);
  await anonymous.getByRole('link', { name: 'Verify a document' }).click();
  await expect(anonymous).toHaveURL(`${baseUrl}/verify`);
  await anonymous.getByTestId('pdf-dropzone').locator('input[type="file"]').setInputFiles(signedFile);
  const verdict = anonymous.getByTestId('verdict');
  await expect(verdict).toContainText('Authentic and untampered');
  await expect(verdict).toContainText(`${me.firstName} ${me.lastName}`);
  const signature = anonymous.getByRole('article', { name: 'Signature 1' });
  await expect(signature).toContainText('The signed bytes are intact');
  await expect(signature).toContainText('Its certificate was issued by the Careplane CA');
  await expect(signature).toContainText('Careplane completed this signature');
  await shoot(anonymous, 'verify-authentic');

  // The untouched upload has no signature; a changed byte is caught.
  const changed = readFileSync(signedFile);
  changed[11] = changed[11]! ^ 0x01;
  const changedFile = path.join(folder, 'changed.pdf');
  writeFileSync(changedFile, changed);
  await anonymous.getByTestId('pdf-dropzone').locator('input[type="file"]').setInputFiles(changedFile);
  await expect(anonymous.getByTestId('verdict')).toContainText('Tampered or damaged');
  await shoot(anonymous, 'verify-tampered');
  await visitor.close();
});
