import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineListSpec, filterKinds as k } from '@careplane/shared/common/list-spec';
import { userSchema } from '@careplane/shared/users/users.contract';
import { AppProvider } from '@/app/provider.tsx';
import { createQueryClient } from '@/lib/query-client.ts';
import { fakeList, fakeUser } from '@/test/admin-fakes.ts';
import { resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';
import { FilterPanel } from './filter-controls.tsx';

const spec = defineListSpec({
  resource: 'devices',
  filters: {
    id: k.uuid,
    title: k.text,
    isEnabled: k.boolean,
    role: k.enum(['workstation', 'patient_terminal']),
    localRoles: k.enumList(['workstation', 'patient_terminal']),
    'assignedUser.id': k.ref('users'),
  },
  search: ['title'],
  sort: ['createdAt'],
  relations: [],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

let network: FakeNetwork;
beforeEach(() => {
  resetSession();
  signIn();
  network = fakeNetwork().install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPanel(filters: Record<string, string> = {}) {
  const onChange = vi.fn();
  render(
    <AppProvider queryClient={createQueryClient()} env="test">
      <FilterPanel
        spec={spec}
        filters={filters}
        onChange={onChange}
        onClear={() => undefined}
        labels={{ 'assignedUser.id': 'Assigned user' }}
      />
    </AppProvider>,
  );
  return onChange;
}

describe('filter controls built from a list spec', () => {
  it('offers one labelled control per filter, by kind', () => {
    renderPanel();
    expect(screen.getByRole('textbox', { name: 'ID' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Title' })).toBeVisible();
    // The label names the field; the hint says how it matches, never the field's key.
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveAttribute('placeholder', 'The exact value');
    // Yes/no, one of, any of, and a record picked by name: all comboboxes with their labels.
    for (const name of ['Is enabled', 'Role', 'Assigned user']) {
      expect(screen.getByRole('combobox', { name }).getAttribute('aria-haspopup')).toBe('listbox');
    }
    expect(screen.getByText('Any of')).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Local roles' })).toBeVisible();
  });

  it('reports a yes/no and an enumeration choice as the filter value', async () => {
    const onChange = renderPanel();
    await userEvent.click(screen.getByRole('combobox', { name: 'Is enabled' }));
    await userEvent.click(await screen.findByRole('option', { name: 'No' }));
    expect(onChange).toHaveBeenCalledWith('isEnabled', 'false');
    await userEvent.click(screen.getByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'patient terminal' }));
    expect(onChange).toHaveBeenCalledWith('role', 'patient_terminal');
  });

  it('refuses an id that is not a uuid instead of sending it', async () => {
    const onChange = renderPanel();
    await userEvent.type(screen.getByRole('textbox', { name: 'ID' }), 'abc');
    expect(await screen.findByText('Must be a uuid')).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('searches the referenced resource by name as one types and shows names, never ids', async () => {
    const ann = fakeUser({
      id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f91',
      firstName: 'Ann',
      lastName: 'Lee',
      username: 'ann@careplane.test',
    });
    network.on('GET', '/api/users', (call) => {
      const like = call.url.searchParams.getAll('filtersLike');
      return json(fakeList(userSchema, like.some((entry) => entry.endsWith('~ann')) ? [ann] : []));
    });
    const onChange = renderPanel();
    const picker = screen.getByRole('combobox', { name: 'Assigned user' });
    await userEvent.click(picker);
    await userEvent.type(picker, 'ann');
    const option = await screen.findByRole('option', { name: /Ann Lee/ });
    expect(within(option).getByText('ann@careplane.test')).toBeVisible();
    expect(screen.queryByText(ann.id)).toBeNull();
    await waitFor(() =>
      expect(
        network
          .callsTo('GET', '/api/users')
          .some((call) => call.url.searchParams.getAll('filtersLike').includes('name~ann')),
      ).toBe(true),
    );
    await userEvent.click(option);
    expect(onChange).toHaveBeenCalledWith('assignedUser.id', ann.id);
  });

  it('names the chosen record of a copied link by reading it by id', async () => {
    const ann = fakeUser({ id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f91', firstName: 'Ann', lastName: 'Lee' });
    network.on('GET', '/api/users', () => json(fakeList(userSchema, [ann])));
    renderPanel({ 'assignedUser.id': ann.id });
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Assigned user' }).value).toBe('Ann Lee'),
    );
    const byId = network.callsTo('GET', '/api/users')[0]!;
    expect(byId.url.searchParams.getAll('filters')).toEqual([`id~${ann.id}`]);
  });
});
