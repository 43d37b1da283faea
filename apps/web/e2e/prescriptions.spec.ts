// The custody chain in Chromium against the real server: a doctor issues a prescription from /prescriptions
// and closes the page (the command-line authenticator approves the signature; the server completes it, nobody
// polls), the pharmacist accepts it and marks it ready in /pharmacy, the driver reaches /prescriptions from
// the account page, picks it up (approved on the "phone") and delivers it, each list refreshing by itself, and
// the admin downloads the signed prescription.
import {
  approve,
  call,
  expectNoSideScroll,
  PHONE,
  removePhones,
  setCustodyScene,
  signIn,
} from './support/custody.ts';
import { expect, test } from './support/test.ts';

// Four sign-ins and two signatures through a command-line phone on a busy machine.
test.describe.configure({ timeout: 240_000 });
test.afterAll(removePhones);

test('a doctor issues, the pharmacist prepares, the driver picks up and delivers, the admin downloads', async ({
  browser,
  request,
}) => {
  const admin = await signIn(browser, 'console.rx.admin@careplane.local', /\/admin$/);
  const doctor = await signIn(browser, 'console.rx.doctor@careplane.local', /\/account$/);
  const pharmacist = await signIn(browser, 'console.rx.pharmacist@careplane.local', /\/account$/, PHONE);
  const driver = await signIn(browser, 'console.rx.driver@careplane.local', /\/account$/, PHONE);
  // The admin sets the scene: a pharmacy employing the pharmacist, a courier company, everyone's role.
  const { adminId, doctorId, driverId, pharmacy, couriers } = await setCustodyScene(
    request,
    { admin, doctor, pharmacist, driver },
    { name: 'Browser Test', street: 'Charoen Krung Rd' },
  );

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
  // At a desk the top bar carries the language: the account page does not show a second switch.
  await expect(desk.getByText('ไทย', { exact: true }).filter({ visible: true })).toHaveCount(1);
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
  // On a phone the top bar has no room for the language: the area's tabs carry it.
  await expect(
    pharmacy$.getByRole('navigation', { name: 'Pharmacy menu' }).getByText('ไทย', { exact: true }),
  ).toBeVisible();
  await expect(pharmacy$.getByRole('banner').getByText('ไทย', { exact: true })).toBeHidden();
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
  // It takes the card off the driver's list for good: the console asks first.
  await road
    .getByRole('dialog', { name: 'Delivered to the recipient?' })
    .getByRole('button', { name: 'Delivered' })
    .click();
  await expect(road.getByText('No prescriptions here.')).toBeVisible();
  await expect(road.getByText('Marked delivered: Metformin', { exact: false })).toBeVisible();

  // The admin reads its history in the custody's words, and downloads the signed prescription from its page.
  await admin.page.goto(`/admin/prescriptions/${prescription.id}`);
  await expect(admin.page.getByText('delivered').first()).toBeVisible();
  const history = admin.page.getByRole('table', { name: 'History' });
  for (const event of [
    'Issue: signature asked on the phone',
    'Issued',
    'Accepted',
    'Picked up',
    'Marked delivered',
  ])
    await expect(history.getByText(event, { exact: true })).toBeVisible();
  await expect(history).not.toContainText(/idempotency|request id/i);
  const [download] = await Promise.all([
    admin.page.waitForEvent('download'),
    admin.page.getByRole('button', { name: 'Download signed document' }).first().click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^document \d+\.pdf$/);
});
