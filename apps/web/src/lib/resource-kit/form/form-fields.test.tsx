// A date field takes a date typed as the field shows it (DD.MM.YYYY, the year in the Buddhist era in Thai) or
// as YYYY-MM-DD, not only one picked in the calendar; a typed text that is no date is refused on the field,
// never dropped or replaced by the last date.
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { z } from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FieldSpec } from './form-model.ts';
import { ResourceForm } from './resource-form.tsx';

afterEach(cleanup);

const fields: FieldSpec[] = [
  { kind: 'text', name: 'title', label: 'Title' },
  {
    kind: 'group',
    name: 'additionalInfo',
    label: 'Identity',
    fields: [
      { kind: 'date', name: 'identityDocumentIssueDate', label: 'Issued on' },
      { kind: 'date', name: 'dateOfBirth', label: 'Date of birth' },
    ],
  },
];

/** A form lives on a page of the console's router (it asks before leaving with changes not saved). */
const onAPage = (element: ReactNode) => (
  <RouterProvider router={createMemoryRouter([{ path: '/', element }])} />
);

function renderForm(record?: Record<string, unknown>) {
  const onSubmit = vi.fn(async () => undefined);
  render(
    <MantineProvider>
      <DatesProvider settings={{ locale: 'en' }}>
        {onAPage(
          <ResourceForm fields={fields} record={record} onSubmit={onSubmit} onCancel={() => undefined} />,
        )}
      </DatesProvider>
    </MantineProvider>,
  );
  return onSubmit;
}

const box = (name: string | RegExp) => screen.getByRole<HTMLInputElement>('textbox', { name });

describe('a typed date', () => {
  it('is sent on create, as DD.MM.YYYY or YYYY-MM-DD', async () => {
    const onSubmit = renderForm();
    await userEvent.type(box('Date of birth'), '15.03.1950');
    await userEvent.tab();
    expect(box('Date of birth').value).toBe('15.03.1950');
    await userEvent.type(box('Issued on'), '2020-01-31');
    await userEvent.tab();
    expect(box('Issued on').value).toBe('31.01.2020');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith(
      { additionalInfo: { dateOfBirth: '1950-03-15', identityDocumentIssueDate: '2020-01-31' } },
      'create',
    );
  });

  it('is sent on edit as the change it is', async () => {
    const onSubmit = renderForm({ title: 'Ann', additionalInfo: { dateOfBirth: '1951-01-01' } });
    expect(box('Date of birth').value).toBe('01.01.1951');
    await userEvent.clear(box('Date of birth'));
    await userEvent.type(box('Date of birth'), '15.03.1950');
    await userEvent.tab();
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({ additionalInfo: { dateOfBirth: '1950-03-15' } }, 'edit');
  });

  it('reads a Buddhist-era year in Thai, as the field shows it', async () => {
    await act(() => i18next.changeLanguage('th'));
    const onSubmit = renderForm();
    await userEvent.type(box('Date of birth'), '15.03.2493');
    await userEvent.tab();
    expect(box('Date of birth').value).toBe('15.03.2493');
    await userEvent.click(screen.getByRole('button', { name: 'สร้าง' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({ additionalInfo: { dateOfBirth: '1950-03-15' } }, 'create');
  });

  it('that is no date shows an error on the field, and the form sends nothing', async () => {
    const onSubmit = renderForm({ title: 'Ann', additionalInfo: { dateOfBirth: '1951-01-01' } });
    await userEvent.clear(box('Date of birth'));
    await userEvent.type(box('Date of birth'), '31.02.1950');
    await userEvent.tab();
    // Left as typed, and said so at once.
    expect(box('Date of birth').value).toBe('31.02.1950');
    const message = 'Not a date: type it as DD.MM.YYYY, or pick it in the calendar';
    expect(await screen.findByText(message)).toBeVisible();
    expect(box('Date of birth').getAttribute('aria-invalid')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(message)).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
    // Corrected, it is sent.
    await userEvent.clear(box('Date of birth'));
    await userEvent.type(box('Date of birth'), '28.02.1950');
    expect(screen.queryByText(message)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({ additionalInfo: { dateOfBirth: '1950-02-28' } }, 'edit');
  });
});

describe('a form with several problems', () => {
  it('shows JSON that does not parse together with every other field’s problem, and sends nothing', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const schema = z.strictObject({
      model: z.string().min(1, 'Model is required.'),
      connectionMeta: z.looseObject({}).optional(),
    });
    render(
      <MantineProvider>
        {onAPage(
          <ResourceForm
            fields={[
              { kind: 'text', name: 'model', label: 'Model', required: true },
              { kind: 'json', name: 'connectionMeta', label: 'Connection details' },
            ]}
            createSchema={schema}
            onSubmit={onSubmit}
            onCancel={() => undefined}
          />,
        )}
      </MantineProvider>,
    );
    await userEvent.type(box(/Connection details/), '{{ "pairedWith": ');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Must be valid JSON')).toBeVisible();
    expect(screen.getByText('Model is required.')).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
