// The custody chain in Chromium against the real server: a doctor writes a prescription for a patient of their
// command center (decision 084) and issues it from /prescriptions
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

test('a doctor writes and issues, the pharmacist prepares, the driver picks up and delivers, the admin downloads', async ({
  browser,
  request,
}) => {
  const admin = await signIn(browser, 'console.rx.admin@careplane.local', /\/admin$/);
  const doctor = await signIn(browser, 'console.rx.doctor@careplane.local', /\/account$/);
  const pharmacist = await signIn(browser, 'console.rx.pharmacist@careplane.local', /\/account$/, PHONE);
  const driver = await signIn(browser, 'console.rx.driver@careplane.local', /\/account$/, PHONE);
  // The admin sets the scene: a pharmacy employing the pharmacist, a courier company, everyone's role.
  const { doctorId, driverId, couriers } = await setCustodyScene(
    request,
    { admin, doctor, pharmacist, driver },
    { name: 'Browser Test', street: 'Charoen Krung Rd' },
  );

  // The driver works for the courier company the doctor picks, so the pickup is theirs to make.
  await call(request, admin, 'PATCH', `/api/users/${driverId}`, { employers: [couriers.id] });
  // A patient of the doctor's command center, for whom the doctor writes it in the console (decision 084).
  const patient = await call<{ id: string }>(request, admin, 'POST', '/api/users', {
    username: `rx.patient.${Date.now()}@careplane.local`,
    firstName: 'Pranee',
    lastName: `Browser ${Date.now()}`,
    localRoles: ['patient'],
    address: [{ street: 'Charoen Krung Rd', houseNumber: '9', city: 'Bangkok', country: 'TH' }],
  });
  await call(request, admin, 'POST', '/api/command-centers', {
    title: `Browser Test Center ${Date.now()}`,
    address: { title: 'Center', street: 'Rama IV Rd', city: 'Bangkok', country: 'TH' },
    assignedUsers: [doctorId, patient.id],
  });
  const desk = doctor.page;
  // At a desk the top bar carries the language: the account page does not show a second switch.
  await expect(desk.getByText('ไทย', { exact: true }).filter({ visible: true })).toHaveCount(1);
  await desk.goto('/prescriptions/written');
  await desk.getByRole('link', { name: 'Write a prescription' }).click();
  const patientBox = desk.getByRole('combobox', { name: /^Patient/ });
  await patientBox.fill('Pranee');
  await desk.getByRole('option', { name: /^Pranee Browser/ }).click();
  await desk.getByRole('combobox', { name: /^Pharmacy/ }).fill('Browser Test');
  await desk.getByRole('option', { name: /^Browser Test Pharmacy/ }).click();
  await desk.getByRole('combobox', { name: /^Courier company/ }).fill('Browser Test');
  await desk.getByRole('option', { name: 'Browser Test Couriers' }).click();
  await desk.getByRole('textbox', { name: /^Name/ }).fill('Metformin');
  await desk.getByRole('textbox', { name: /^Strength/ }).fill('500 mg');
  await desk.getByRole('textbox', { name: /^Quantity/ }).fill('60');
  await desk.getByRole('textbox', { name: /^Unit/ }).fill('tablets');
  await desk.getByRole('button', { name: 'Save as new' }).click();
  await expect(desk).toHaveURL(/\/prescriptions\/written$/);
  await expect(desk.getByText('Written: Metformin 500 mg × 60 tablets', { exact: false })).toBeVisible();
  const written = await call<{ items: { id: string; status: string; recipientId: string }[] }>(
    request,
    doctor,
    'GET',
    `/api/prescriptions?filters=${encodeURIComponent(`issuer.id~${doctorId}`)}`,
  );
  expect(written.items).toHaveLength(1);
  const [prescription] = written.items as [(typeof written.items)[number]];
  expect(prescription).toMatchObject({ status: 'new', recipientId: patient.id });
  // It waits for the doctor to issue it; the phone signs the generated prescription.
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
  await expect(road.getByText('No prescriptions here.')).toBeVisible({ timeout: 40_000 });
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
