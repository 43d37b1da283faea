// The users list and page on the kit: rows by name, sort and page in the URL, CSV export of the same view,
// the one-time enrollment after creation and promotion with its confirmation.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userSchema } from '@careplane/shared/users/users.contract';
import { fakeList, fakeUser, signedInAdmin } from '@/test/admin-fakes.ts';
import { renderApp } from '@/test/app.tsx';
import { json, type FakeNetwork } from '@/test/network.ts';
import { ENROLLMENT_WATCH_MS } from './components/enrollment-notice.tsx';

const ann = fakeUser({
  id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f91',
  firstName: 'Ann',
  lastName: 'Lee',
  username: 'ann@careplane.test',
  localRoles: ['nurse'],
  identityAssuranceLevel: 'high',
});
let network: FakeNetwork;

beforeEach(() => {
  network = signedInAdmin()
    .on('GET', '/api/users', () => json(fakeList(userSchema, [ann], 45)))
    .on('GET', `/api/users/${ann.id}`, () => json(ann))
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the users list', () => {
  it('shows rows by name, with the relations its columns read, and keeps sort and page in the URL', async () => {
    const { router } = renderApp('/admin/users', { env: 'test' });
    const link = await screen.findByRole('link', { name: 'Ann Lee' });
    expect(link.getAttribute('href')).toBe(`/admin/users/${ann.id}`);
    const first = network.callsTo('GET', '/api/users')[0]!.url.searchParams;
    expect(first.get('relations')).toBe('patientProfile,commandCenters');
    expect(first.get('limit')).toBe('20');
    expect(first.getAll('sort')).toEqual(['createdAt:desc']);
    // The rows come without their total; the total is a one-row request of its own.
    expect(first.get('count')).toBe('false');
    await waitFor(() =>
      expect(
        network.callsTo('GET', '/api/users').some((call) => call.url.searchParams.get('limit') === '1'),
      ).toBe(true),
    );

    // A sortable header is a button.
    await userEvent.click(screen.getByRole('button', { name: /^Name/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=lastName%3Aasc'));
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=lastName%3Aasc&page=3'));
    await waitFor(() => {
      const last = network.callsTo('GET', '/api/users').at(-1)!.url.searchParams;
      expect(last.getAll('sort')).toEqual(['lastName:asc']);
      expect(last.get('offset')).toBe('40');
    });
  });

  it('exports the same view as CSV (without paging) and saves it under the server’s name', async () => {
    const saved: string[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:csv', revokeObjectURL: () => undefined }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    network.on(
      'GET',
      '/api/users/export.csv',
      () =>
        new Response('Name\nAnn Lee\n', {
          headers: {
            'content-type': 'text/csv',
            'content-disposition': 'attachment; filename="users 2026-11-23T12-00.csv"',
          },
        }),
    );
    renderApp('/admin/users?filters=localRoles~nurse&page=2', { env: 'test' });
    await screen.findByRole('link', { name: 'Ann Lee' });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toEqual(['users 2026-11-23T12-00.csv']));
    const call = network.callsTo('GET', '/api/users/export.csv')[0]!;
    expect(call.url.searchParams.getAll('filters')).toEqual(['localRoles~nurse']);
    expect(call.url.searchParams.has('limit')).toBe(false);
    expect(call.url.searchParams.has('offset')).toBe(false);
    // The file's dates are in the reader's zone, as the list shows them.
    expect(call.url.searchParams.get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(call.headers.accept).toBe('text/csv');
    expect(call.headers.authorization).toBe('Bearer access-token');
    click.mockRestore();
  });
});

describe("a user's page", () => {
  it('shows the one-time enrollment after creation, with its QR code', async () => {
    const created = {
      ...ann,
      enrollment: {
        code: 'AB12-CD34',
        link: 'http://careplane.test/authenticator/enroll#code=AB12-CD34',
        expiresAt: '2026-11-24T12:00:00.000Z',
      },
    };
    network.on('POST', '/api/users', () => json(userSchema.parse(created), 201));
    renderApp('/admin/users/edit', { env: 'test' });
    // Pasted rather than typed key by key: the whole form re-renders on each key, slow on a loaded machine.
    await userEvent.click(await screen.findByRole('textbox', { name: /Username/ }));
    await userEvent.paste('ann@careplane.test');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Enroll the phone of the new user now')).toBeVisible();
    expect(screen.getByTestId('enrollment-code').textContent).toBe('AB12-CD34');
    expect(await screen.findByRole('img', { name: 'QR code of the enrollment link' })).toBeVisible();
    expect(JSON.parse(network.callsTo('POST', '/api/users')[0]!.body!)).toMatchObject({
      username: 'ann@careplane.test',
    });
  });

  it('promotes after a warning confirmation whose button reads Confirm promotion', async () => {
    network.on('PATCH', `/api/users/${ann.id}`, () => json({ ...ann, localRoles: ['supervisor'] }));
    renderApp(`/admin/users/${ann.id}`, { env: 'test' });
    await userEvent.click(await screen.findByRole('combobox', { name: 'Promote to the single role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'supervisor' }));
    await userEvent.click(screen.getByRole('button', { name: 'Promote' }));
    const dialog = await screen.findByRole('dialog', { name: 'Promote this user?' });
    expect(
      within(dialog).getByText(/“Ann Lee” \(nurse\) will be replaced by the single role supervisor/),
    ).toBeVisible();
    const confirm = within(dialog).getByRole('button', { name: 'Confirm promotion' });
    expect(network.callsTo('PATCH', `/api/users/${ann.id}`)).toHaveLength(0);
    await userEvent.click(confirm);
    await waitFor(() => expect(network.callsTo('PATCH', `/api/users/${ann.id}`)).toHaveLength(1));
    expect(JSON.parse(network.callsTo('PATCH', `/api/users/${ann.id}`)[0]!.body!)).toEqual({
      localRoles: ['supervisor'],
    });
  });
});

describe("a user's phones", () => {
  const withSignIn = { ...ann, masterId: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f00' };
  const pixel = {
    id: 'pQ2v0nJ7d0r1mS9x4kWc8y5tB3aE6fH2gL1iZ0uV9oA',
    label: 'Pixel 8',
    enrolledAt: '2026-11-01T08:00:00.000Z',
    lastUsedAt: '2026-11-24T07:30:00.000Z',
    revokedAt: null,
  };
  const old = {
    id: 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7Zy6X',
    label: null,
    enrolledAt: '2026-01-10T08:00:00.000Z',
    lastUsedAt: null,
    revokedAt: '2026-11-01T07:59:00.000Z',
  };

  it('lists them, and revokes a lost one only after saying what it ends', async () => {
    let revokedAt: string | null = null;
    network
      .on('GET', `/api/users/${ann.id}`, () => json(withSignIn))
      .on('GET', `/api/users/${ann.id}/phones`, () => json({ items: [{ ...pixel, revokedAt }, old] }))
      .on('POST', `/api/users/${ann.id}/phones/${pixel.id}/revoke`, () => {
        revokedAt = '2026-11-25T09:00:00.000Z';
        return json({ ...pixel, revokedAt });
      });
    renderApp(`/admin/users/${ann.id}`, { env: 'test' });
    const table = await screen.findByRole('list', { name: 'Phones' });
    expect(await within(table).findByText('Pixel 8')).toBeVisible();
    expect(within(table).getByText(`Phone ${old.id.slice(0, 8)}`)).toBeVisible();
    expect(within(table).getByText(/never used yet/)).toBeVisible();
    expect(within(table).getByText(/^Revoked /)).toBeVisible();
    // A revoked phone has nothing left to revoke.
    expect(within(table).getAllByRole('button', { name: /^Revoke/ })).toHaveLength(1);

    await userEvent.click(within(table).getByRole('button', { name: 'Revoke Pixel 8' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke Pixel 8?' });
    await waitFor(() =>
      expect(within(dialog).getByText(/Every sign-in of Ann Lee ends now, on every device/)).toBeVisible(),
    );
    expect(network.callsTo('POST', `/api/users/${ann.id}/phones/${pixel.id}/revoke`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke phone' }));
    expect(await screen.findByText('Pixel 8 was revoked.')).toBeVisible();
    expect(network.callsTo('POST', `/api/users/${ann.id}/phones/${pixel.id}/revoke`)).toHaveLength(1);
    await waitFor(() => expect(within(table).queryByRole('button', { name: /^Revoke/ })).toBeNull());
  });

  it('enrolls another phone with a one-time code, and says when the phone has enrolled with it', async () => {
    let enrolled: (typeof pixel)[] = [];
    network
      .on('GET', `/api/users/${ann.id}`, () => json(withSignIn))
      .on('GET', `/api/users/${ann.id}/phones`, () => json({ items: enrolled }))
      .on('POST', `/api/users/${ann.id}/enrollment`, () =>
        json(
          {
            code: 'EF56-GH78',
            link: 'http://careplane.test/authenticator/enroll#code=EF56-GH78',
            expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
          },
          201,
        ),
      );
    renderApp(`/admin/users/${ann.id}`, { env: 'test' });
    expect(
      await screen.findByText('No phone is enrolled: this user cannot sign in until one is.'),
    ).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Enroll a new phone' }));
    expect(await screen.findByText('Enroll the new phone now')).toBeVisible();
    expect(screen.getByTestId('enrollment-code').textContent).toBe('EF56-GH78');

    // The person enrolls on their phone: the page hears of it by itself, and the used code goes.
    enrolled = [pixel];
    expect(
      await screen.findByText(
        'Pixel 8 is enrolled: the one-time code is used up and no longer shown.',
        {},
        { timeout: ENROLLMENT_WATCH_MS + 3_000 },
      ),
    ).toBeVisible();
    expect(screen.queryByTestId('enrollment-code')).toBeNull();
    const list = screen.getByRole('list', { name: 'Phones' });
    expect(within(list).getByText('Pixel 8')).toBeVisible();
    // Once it has enrolled, nobody asks any more.
    const asked = network.callsTo('GET', `/api/users/${ann.id}/phones`).length;
    await new Promise((resolve) => setTimeout(resolve, ENROLLMENT_WATCH_MS + 500));
    expect(network.callsTo('GET', `/api/users/${ann.id}/phones`)).toHaveLength(asked);
  });

  it("ends the creation's code with a fresh one: the creation's notice goes, and the new one says so", async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const created = {
      ...withSignIn,
      enrollment: {
        code: 'AB12-CD34',
        link: 'http://careplane.test/authenticator/enroll#code=AB12-CD34',
        expiresAt: inAnHour,
      },
    };
    network
      .on('POST', '/api/users', () => json(userSchema.parse(created), 201))
      .on('GET', `/api/users/${ann.id}`, () => json(withSignIn))
      .on('GET', `/api/users/${ann.id}/phones`, () => json({ items: [] }))
      .on('POST', `/api/users/${ann.id}/enrollment`, () =>
        json(
          {
            code: 'EF56-GH78',
            link: 'http://careplane.test/authenticator/enroll#code=EF56-GH78',
            expiresAt: inAnHour,
          },
          201,
        ),
      );
    renderApp('/admin/users/edit', { env: 'test' });
    await userEvent.click(await screen.findByRole('textbox', { name: /Username/ }));
    await userEvent.paste('ann@careplane.test');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Enroll the phone of the new user now')).toBeVisible();
    expect(screen.getByTestId('enrollment-code').textContent).toBe('AB12-CD34');

    await userEvent.click(await screen.findByRole('button', { name: 'Enroll a new phone' }));
    expect(await screen.findByText('Enroll the new phone now')).toBeVisible();
    // The creation's code no longer works: it is no longer shown as if it did.
    await waitFor(() => expect(screen.queryByText('Enroll the phone of the new user now')).toBeNull());
    expect(screen.getAllByTestId('enrollment-code').map((code) => code.textContent)).toEqual(['EF56-GH78']);
    expect(screen.getByText(/A code issued for them before and not used no longer works\./)).toBeVisible();
  });

  it("warns of a person's only phone on the list as it is when Revoke is pressed", async () => {
    let phones = [pixel];
    network
      .on('GET', `/api/users/${ann.id}`, () => json(withSignIn))
      .on('GET', `/api/users/${ann.id}/phones`, () => json({ items: phones }));
    renderApp(`/admin/users/${ann.id}`, { env: 'test' });
    const list = await screen.findByRole('list', { name: 'Phones' });
    expect(await within(list).findByText('Pixel 8')).toBeVisible();
    // Another phone enrolled since the page loaded.
    const spare = { ...pixel, id: old.id, label: 'Spare phone' };
    phones = [spare, pixel];
    await userEvent.click(within(list).getByRole('button', { name: 'Revoke Pixel 8' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke Pixel 8?' });
    expect(await within(list).findByText('Spare phone')).toBeVisible();
    expect(within(dialog).queryByText(/It is the only phone of/)).toBeNull();
  });
});

describe("a patient's emergency contacts", () => {
  it('reads each contact as a block, its number a link a phone dials, its extension left out', async () => {
    const at = '2026-11-20T08:00:00.000Z';
    const patient = {
      ...ann,
      localRoles: ['patient'],
      patientProfile: {
        id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f99',
        createdAt: at,
        updatedAt: at,
        status: 'enrolled',
        location: null,
        emergencyContacts: [
          { name: 'Kanya Srisawat', relationship: 'sister', phoneNumber: '+66 81 234 5678' },
          {
            name: 'Somsak Lee',
            phoneNumber: '02-123-4567 ต่อ 12',
            email: 'somsak@example.test',
            notes: 'Evenings',
          },
        ],
        createdByUserId: null,
      },
    };
    network.on('GET', `/api/users/${ann.id}`, () => json(patient));
    renderApp(`/admin/users/${ann.id}`, { env: 'test' });
    const contacts = await screen.findByRole('list', { name: 'Emergency contacts' });
    const [kanya, somsak] = within(contacts).getAllByRole('listitem');
    expect(within(kanya!).getByText('Kanya Srisawat · sister')).toBeVisible();
    expect(within(kanya!).getByRole('link', { name: '+66 81 234 5678' })).toHaveAttribute(
      'href',
      'tel:+66812345678',
    );
    expect(within(somsak!).getByRole('link', { name: '02-123-4567 ต่อ 12' })).toHaveAttribute(
      'href',
      'tel:021234567',
    );
    expect(within(somsak!).getByRole('link', { name: 'somsak@example.test' })).toHaveAttribute(
      'href',
      'mailto:somsak@example.test',
    );
    expect(within(somsak!).getByText('Evenings')).toBeVisible();
    expect(screen.queryByRole('table', { name: 'Emergency contacts' })).toBeNull();
  });
});

describe('editing a user', () => {
  it('removes a name the admin emptied, instead of leaving it and saying saved', async () => {
    network
      .on('GET', '/api/service-providers', () => json({ items: [], total: 0, limit: 20, offset: 0 }))
      .on('GET', '/api/command-centers', () => json({ items: [], total: 0, limit: 20, offset: 0 }))
      .on('PATCH', `/api/users/${ann.id}`, (call) => json({ ...ann, ...JSON.parse(call.body ?? '{}') }));
    const { router } = renderApp(`/admin/users/edit/${ann.id}`, { env: 'test' });
    const firstName = await screen.findByRole<HTMLInputElement>('textbox', { name: 'First name' });
    await waitFor(() => expect(firstName.value).toBe('Ann'));
    await userEvent.clear(firstName);
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(network.callsTo('PATCH', `/api/users/${ann.id}`)).toHaveLength(1));
    expect(JSON.parse(network.callsTo('PATCH', `/api/users/${ann.id}`)[0]!.body!)).toEqual({ firstName: '' });
    // Saved, the user's page is shown (and read again) before the test ends.
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/users/${ann.id}`));
    expect(await screen.findByRole('heading', { name: /Lee/ })).toBeVisible();
  });
});

describe('a phone number', () => {
  it('is refused under its field when no one could dial it, and nothing is sent', async () => {
    network
      .on('GET', '/api/service-providers', () => json({ items: [], total: 0, limit: 20, offset: 0 }))
      .on('GET', '/api/command-centers', () => json({ items: [], total: 0, limit: 20, offset: 0 }));
    renderApp(`/admin/users/edit/${ann.id}`, { env: 'test' });
    const phone = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Phone number' });
    await waitFor(() => expect(phone.value).toBe(ann.phoneNumber));
    await userEvent.clear(phone);
    await userEvent.type(phone, 'call me maybe');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/^Must be a phone number: digits/)).toBeVisible();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(network.callsTo('PATCH', `/api/users/${ann.id}`)).toHaveLength(0);
  });
});

describe("a user's history", () => {
  it('names the changed fields as the pages name them, never by their keys', async () => {
    network.on('GET', '/api/users/logs', () =>
      json({
        items: [
          {
            id: 7,
            at: '2026-11-23T10:00:00.000Z',
            action: 'update',
            resource: 'users',
            recordId: ann.id,
            actorUserId: null,
            actorSubject: null,
            changes: { lastName: 'Lee', masterId: 'x', registrationCompleted: true },
            ip: null,
          },
          {
            id: 8,
            at: '2026-11-24T10:00:00.000Z',
            action: 'revoke-phone',
            resource: 'users',
            recordId: ann.id,
            actorUserId: null,
            actorSubject: null,
            changes: { phone: 'pQ2v0nJ7', label: 'Pixel 8', signInsEnded: 2 },
            ip: null,
          },
        ],
        total: 2,
        limit: 50,
        offset: 0,
      }),
    );
    renderApp(`/admin/users/${ann.id}`, { env: 'test' });
    const history = await screen.findByRole('table', { name: 'History' });
    expect(await within(history).findByText('Last name, Master ID, Registration completed')).toBeVisible();
    // The sign-in's own events, in words.
    expect(within(history).getByText('Phone revoked')).toBeVisible();
    expect(within(history).getByText('Phone, Phone name, Sign-ins ended')).toBeVisible();
  });
});

describe('in Thai', () => {
  it('titles the list, its columns and the user’s page in Thai, roles included', async () => {
    await act(() => i18next.changeLanguage('th'));
    renderApp('/admin/users', { env: 'test' });
    expect(await screen.findByRole('link', { name: 'Ann Lee' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'ผู้ใช้งาน', level: 1 })).toBeVisible();
    expect(screen.getAllByText('บทบาทในหน่วยงาน').length).toBeGreaterThan(0);

    renderApp(`/admin/users/${ann.id}`, { env: 'test' });
    expect(await screen.findByRole('region', { name: 'ข้อมูลส่วนตัว' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'การดูแล' })).toBeVisible();
    // The role's badge (the promotion's choices name it too).
    const roles = screen.getByRole('region', { name: i18next.t('users:detail.roles') });
    expect(within(roles).getAllByText('พยาบาล')[0]).toBeVisible();
    // The assurance level in words, not the identity provider's value.
    expect(screen.getByText('สูง')).toBeVisible();
    expect(screen.queryByText('high')).toBeNull();
  });
});
