import { describe, expect, it } from 'vitest';
import { editFormChanges } from '@careplane/shared/common/edit-form';
import { commandCenterCreateSchema } from '@careplane/shared/command-centers/command-centers.contract';
import { formPayload, formValues, placeIssues, type FieldSpec } from './form-model.ts';

const fields: readonly FieldSpec[] = [
  { kind: 'text', name: 'title', label: 'Title' },
  { kind: 'switch', name: 'isEnabled', label: 'Enabled', defaultValue: true },
  { kind: 'refList', name: 'employees', label: 'Employees', resource: 'users' },
  { kind: 'address', name: 'address', label: 'Address', required: true },
  { kind: 'address', name: 'home', label: 'Home', asList: true },
  { kind: 'json', name: 'meta', label: 'Meta' },
  {
    kind: 'list',
    name: 'contacts',
    label: 'Contacts',
    itemLabel: 'Contact',
    fields: [{ kind: 'text', name: 'name', label: 'Name' }],
  },
];

describe('the form model', () => {
  it('reads a record into form values: relations as ids, addresses as parts, JSON as text', () => {
    const values = formValues(fields, {
      title: 'Clinic',
      employees: [{ id: 'a', firstName: 'Ann' }, { id: 'b' }],
      address: { city: 'Bangkok', geo: { lat: 13.7, lng: 100.5 } },
      home: [{ street: 'Silom Road' }],
      meta: { floor: 2 },
      contacts: [{ name: 'Ann' }],
    });
    expect(values).toMatchObject({
      title: 'Clinic',
      isEnabled: true,
      employees: ['a', 'b'],
      address: { city: 'Bangkok', street: '', geo: { lat: 13.7, lng: 100.5 } },
      home: { street: 'Silom Road' },
      meta: '{\n  "floor": 2\n}',
      contacts: [{ name: 'Ann' }],
    });
  });

  it('makes the request body: empty fields left out, a required address kept, a list of one address', () => {
    const values = formValues(fields);
    (values.home as { city: string }).city = 'Phuket';
    expect(formPayload(fields, values)).toEqual({
      payload: { isEnabled: true, employees: [], address: {}, home: [{ city: 'Phuket' }], contacts: [] },
      errors: {},
    });
  });

  it('reports JSON that does not parse on its field', () => {
    const values = { ...formValues(fields), meta: '{ nope' };
    expect(formPayload(fields, values).errors).toEqual({ meta: 'Must be valid JSON' });
  });

  it('finds only the changed, non-null fields with editFormChanges', () => {
    const record = {
      title: 'Clinic',
      isEnabled: true,
      employees: [{ id: 'a' }],
      address: { city: 'Bangkok' },
    };
    const start = formValues(fields, record);
    const edited = { ...start, title: 'Clinic North' };
    const { changes, changed } = editFormChanges(
      formPayload(fields, start).payload,
      formPayload(fields, edited).payload,
    );
    expect(changed).toBe(true);
    expect(changes).toEqual({ title: 'Clinic North' });
  });

  it("places the server's issues (body.address.city) and the schema's on their fields", () => {
    const placed = placeIssues(
      [
        { path: 'body.address.city', message: 'Required' },
        { path: 'body.home.0.street', message: 'Too long' },
        { path: ['contacts', 1, 'name'], message: 'Required' },
        { path: 'body.address.geo', message: 'Invalid input' },
        { path: 'body.owner', message: 'Unknown field' },
        { path: '', message: 'Nothing to change' },
      ],
      fields,
    );
    expect(placed.fieldErrors).toEqual({
      'address.city': 'Required',
      'home.street': 'Too long',
      'contacts.1.name': 'Required',
      address: 'Invalid input',
    });
    expect(placed.other).toEqual(['owner: Unknown field', 'Nothing to change']);
  });

  it('places the schema issues of a command center address on its parts', () => {
    const centerFields: readonly FieldSpec[] = [
      { kind: 'text', name: 'title', label: 'Title' },
      { kind: 'address', name: 'address', label: 'Address', required: true },
    ];
    const { payload } = formPayload(centerFields, formValues(centerFields));
    const result = commandCenterCreateSchema.safeParse(payload);
    expect(result.success).toBe(false);
    const placed = placeIssues(result.error!.issues, centerFields);
    expect(Object.keys(placed.fieldErrors).sort()).toEqual([
      'address.city',
      'address.country',
      'address.street',
      'address.title',
      'title',
    ]);
    expect(placed.other).toEqual([]);
  });
});
