// A hold kept on a pharmacist's phone without a network, while a colleague marks the same prescription ready
// (decision 093), against the real server: when the network is back the hold is sent with the status it was
// taken on, the server refuses it, the phone says so, and the prescription stays ready with no hold in its history.
import { call, issuedPrescription, PHONE, removePhones, setCustodyScene, signIn } from './support/custody.ts';
import { expect, test } from './support/test.ts';
import { goOffline, goOnline } from './support/network.ts';

test.describe.configure({ timeout: 240_000 });
test.afterAll(removePhones);

test("a hold kept offline does not undo a colleague's mark-ready: the phone says it was not applied", async ({
  browser,
  request,
}) => {
  const admin = await signIn(browser, 'console.rx.conflict.admin@careplane.local', /\/admin$/);
  const doctor = await signIn(browser, 'console.rx.conflict.doctor@careplane.local', /\/account$/);
  const pharmacist = await signIn(
    browser,
    'console.rx.conflict.pharmacist@careplane.local',
    /\/account$/,
    PHONE,
  );
  const driver = await signIn(browser, 'console.rx.conflict.driver@careplane.local', /\/account$/);
  const scene = await setCustodyScene(
    request,
    { admin, doctor, pharmacist, driver },
    { name: 'Conflict Test', street: 'Silom Rd' },
  );
  const id = await issuedPrescription(request, { admin, doctor }, scene, {
    name: 'Metformin',
    strength: '500 mg',
    quantity: 60,
    unit: 'tablets',
  });
  const statusNow = async () =>
    (await call<{ status: string }>(request, admin, 'GET', `/api/prescriptions/${id}`)).status;
  await call(request, pharmacist, 'POST', `/api/prescriptions/${id}/accept`, undefined, 200);

  // The pharmacist's phone has the waiting prescription on screen, then loses the network and holds it.
  const phone = pharmacist.page;
  await phone.goto('/pharmacy');
  const card = phone.getByRole('listitem', { name: /Metformin/ });
  await expect(card.getByRole('button', { name: 'Hold' })).toBeVisible({ timeout: 40_000 });
  await goOffline(phone.context());
  await card.getByRole('button', { name: 'Hold' }).click();
  const dialog = phone.getByRole('dialog', { name: 'Put it on hold?' });
  await dialog.getByRole('textbox', { name: 'Why?' }).fill('Waiting for the doctor to confirm the dose');
  await dialog.getByRole('button', { name: 'Hold' }).click();
  await expect(card.getByTestId('kept-action')).toContainText('Hold — queued, will send when online');

  // Meanwhile a colleague, online, marks it ready.
  await call(request, pharmacist, 'POST', `/api/prescriptions/${id}/mark-ready`, undefined, 200);

  // Back online: the kept hold is sent, refused, and the phone says why; nothing is put on hold.
  await goOnline(phone.context());
  await expect(
    phone.getByText(
      /Someone else already moved the prescription Metformin 500 mg .*: it is now ready\. Your 'Hold' was not applied\./,
    ),
  ).toBeVisible({ timeout: 40_000 });
  expect(await statusNow()).toBe('ready');
  const history = await call<{ items: { action: string }[] }>(
    request,
    admin,
    'GET',
    `/api/prescriptions/${id}/history`,
  );
  expect(history.items.map((entry) => entry.action)).not.toContain('hold');
  expect(history.items.map((entry) => entry.action)).toContain('mark-ready');
});
