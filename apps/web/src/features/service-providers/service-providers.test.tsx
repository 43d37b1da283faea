// The kit's form and detail page on one resource, with the API faked at the network edge.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serviceProviderSchema } from '@careplane/shared/service-providers/service-providers.contract';
import { fakeIds, fakeList, fakeServiceProvider, signedInAdmin } from '@/test/admin-fakes.ts';
import { renderApp } from '@/test/app.tsx';
import { json, type FakeNetwork } from '@/test/network.ts';

const id = fakeIds.provider;
const item = `/api/service-providers/${id}`;
let network: FakeNetwork;

beforeEach(() => {
  network = signedInAdmin()
    .on('GET', '/api/users', () => json({ items: [], total: 0, limit: 20, offset: 0 }))
    .on('GET', '/api/service-providers', () => json(fakeList(serviceProviderSchema, [fakeServiceProvider()])))
    .on('GET', item, () => json(fakeServiceProvider()))
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const field = (name: string) => screen.getByRole<HTMLInputElement>('textbox', { name });

describe('editing a service provider', () => {
  it('sends only the field that changed', async () => {
    network.on('PATCH', item, (call) => json(fakeServiceProvider(JSON.parse(call.body ?? '{}'))));
    const { router } = renderApp(`/admin/service-providers/edit/${id}`, { env: 'test' });
    await waitFor(() => expect(field('Title').value).toBe('Sukhumvit Care Pharmacy'));
    await userEvent.clear(field('Title'));
    await userEvent.type(field('Title'), 'Sukhumvit Care Pharmacy North');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(network.callsTo('PATCH', item)).toHaveLength(1));
    expect(JSON.parse(network.callsTo('PATCH', item)[0]!.body!)).toEqual({
      title: 'Sukhumvit Care Pharmacy North',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/service-providers/${id}`));
  });

  it('asks before leaving with changes not saved: staying keeps them, leaving drops them', async () => {
    const { router } = renderApp(`/admin/service-providers/edit/${id}`, { env: 'test' });
    const editing = `/admin/service-providers/edit/${id}`;
    await waitFor(() => expect(field('Title').value).toBe('Sukhumvit Care Pharmacy'));
    await userEvent.type(field('Title'), ' North');
    // A link, the Back button or Cancel: any way out of the form.
    await act(() => router.navigate('/admin/service-providers'));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stay on the form' }));
    expect(router.state.location.pathname).toBe(editing);
    expect(field('Title').value).toBe('Sukhumvit Care Pharmacy North');
    await act(() => router.navigate('/admin/service-providers'));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', {
        name: 'Leave without saving',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/service-providers'));
    expect(network.callsTo('PATCH', item)).toHaveLength(0);
  });

  it('leaves at once when nothing was changed', async () => {
    const { router } = renderApp(`/admin/service-providers/edit/${id}`, { env: 'test' });
    await waitFor(() => expect(field('Title').value).toBe('Sukhumvit Care Pharmacy'));
    await act(() => router.navigate('/admin/service-providers'));
    expect(router.state.location.pathname).toBe('/admin/service-providers');
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).toBeNull();
  });

  it("shows the server's issues on the fields they name, and focuses the first", async () => {
    network.on('PATCH', item, () =>
      json(
        {
          statusCode: 400,
          error: 'Bad Request',
          message: 'Invalid request',
          issues: [{ path: 'body.address.city', message: 'No such city in Thailand' }],
        },
        400,
      ),
    );
    renderApp(`/admin/service-providers/edit/${id}`, { env: 'test' });
    await waitFor(() => expect(field('City').value).toBe('Bangkok'));
    await userEvent.clear(field('City'));
    await userEvent.type(field('City'), 'Atlantis');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('No such city in Thailand')).toBeVisible();
    expect(field('City').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(field('City')));
    expect(screen.getByText('Invalid request').closest('[role="alert"]')).not.toBeNull();
    // The whole address is sent: it is one field of the record.
    expect(JSON.parse(network.callsTo('PATCH', item)[0]!.body!)).toEqual({
      address: expect.objectContaining({ city: 'Atlantis', street: 'Rama IV Road' }),
    });
  });

  it('says so and sends nothing when nothing changed', async () => {
    renderApp(`/admin/service-providers/edit/${id}`, { env: 'test' });
    await waitFor(() => expect(field('Title').value).toBe('Sukhumvit Care Pharmacy'));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Nothing changed, so nothing was saved.')).toBeVisible();
    expect(network.callsTo('PATCH', item)).toHaveLength(0);
  });
});

describe('creating a service provider', () => {
  it("checks the form with the contract's schema before sending, with the server's messages", async () => {
    renderApp('/admin/service-providers/create', { env: 'test' });
    await userEvent.click(await screen.findByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Title is required.')).toBeVisible();
    expect(field('Title').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('combobox', { name: /Type/ }).getAttribute('aria-invalid')).toBe('true');
    expect(network.callsTo('POST', '/api/service-providers')).toHaveLength(0);
  });
});

describe('a service provider address', () => {
  /** The create form with a title and a type, and a server that takes what it is sent. */
  async function startCornerPharmacy() {
    network.on('POST', '/api/service-providers', (call) =>
      json(fakeServiceProvider(JSON.parse(call.body ?? '{}')), 201),
    );
    renderApp('/admin/service-providers/create', { env: 'test' });
    await userEvent.type(await screen.findByRole('textbox', { name: /Title/ }), 'Corner Pharmacy');
    await userEvent.click(screen.getByRole('combobox', { name: /Type/ }));
    await userEvent.click(await screen.findByRole('option', { name: /pharmacy/i }));
  }

  it('must say where the provider is before the form sends it', async () => {
    await startCornerPharmacy();
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Needs a street, a city or a map position')).toBeVisible();
    expect(network.callsTo('POST', '/api/service-providers')).toHaveLength(0);
    await userEvent.type(field('City'), 'Lamphun');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(network.callsTo('POST', '/api/service-providers')).toHaveLength(1));
    expect(JSON.parse(network.callsTo('POST', '/api/service-providers')[0]!.body!)).toMatchObject({
      title: 'Corner Pharmacy',
      type: 'pharmacy',
      address: { city: 'Lamphun' },
    });
  });

  it('refuses a map position off the globe, as typed, instead of moving it to the nearest edge', async () => {
    await startCornerPharmacy();
    await userEvent.type(field('Latitude'), '95');
    await userEvent.type(field('Longitude'), '99.01');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Latitude must be at most 90.')).toBeVisible();
    expect(field('Latitude').value).toBe('95');
    expect(network.callsTo('POST', '/api/service-providers')).toHaveLength(0);
    await userEvent.clear(field('Latitude'));
    await userEvent.type(field('Latitude'), '18.58');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(network.callsTo('POST', '/api/service-providers')).toHaveLength(1));
    expect(JSON.parse(network.callsTo('POST', '/api/service-providers')[0]!.body!)).toMatchObject({
      address: { geo: { lat: 18.58, lng: 99.01 } },
    });
  });
});

describe('deleting a service provider', () => {
  it('asks for a confirmation that names the record, then deletes it', async () => {
    network.on('DELETE', item, () => new Response(null, { status: 204 }));
    const { router } = renderApp(`/admin/service-providers/${id}`, { env: 'test' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this service provider?' });
    expect(
      within(dialog).getByText(
        'The service provider “Sukhumvit Care Pharmacy” will be deleted. This cannot be undone.',
      ),
    ).toBeVisible();
    expect(network.callsTo('DELETE', item)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete service provider' }));
    await waitFor(() => expect(network.callsTo('DELETE', item)).toHaveLength(1));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/service-providers'));
  });
});

describe('a service provider in Thai', () => {
  it('reads its detail page in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    renderApp(`/admin/service-providers/${id}`, { env: 'test' });
    const section = await screen.findByRole('region', { name: 'ผู้ให้บริการ' });
    expect(await within(section).findByText('ประเภท')).toBeVisible();
    expect(within(section).getByText('ร้านยา')).toBeVisible();
    expect(within(section).getByText('ใช่')).toBeVisible();
    expect(screen.getByRole('link', { name: 'ใบสั่งยาที่ผู้ให้บริการนี้จัดยา' })).toBeVisible();
  });
});

describe('the form in Thai', () => {
  it("says what the contract's schema refuses in Thai, on the fields", async () => {
    await act(() => i18next.changeLanguage('th'));
    renderApp('/admin/service-providers/create', { env: 'test' });
    const form = (await screen.findAllByRole('textbox'))[0]!.closest('form')!;
    await userEvent.click(within(form).getByRole('button', { name: /สร้าง/ }));
    expect(await within(form).findByText('ต้องระบุชื่อ')).toBeVisible();
    const messages = [...form.querySelectorAll('.mantine-InputWrapper-error')].map(
      (node) => node.textContent,
    );
    // A type not chosen is missing, not a wrong value.
    expect(messages).toEqual(['ต้องระบุชื่อ', 'ต้องระบุประเภท']);
    expect(within(form).queryByText(/Required|must be one of|is required/i)).toBeNull();
  });
});

describe('an address whose id is not one', () => {
  it.each(['/admin/service-providers/nonsense', '/admin/service-providers/edit/nonsense'])(
    '%s says there is no such service provider, with the way back, asking the server nothing',
    async (path) => {
      renderApp(path, { env: 'test' });
      expect(await screen.findByRole('heading', { name: 'No such service provider' })).toBeVisible();
      expect(screen.getByText('This service provider could not be found.')).toBeVisible();
      expect(screen.getByRole('link', { name: 'Back to service providers' })).toBeVisible();
      expect(network.callsTo('GET', '/api/service-providers/nonsense')).toEqual([]);
    },
  );
});
