import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldName } from './validation-messages.ts';
import { text, uuidSchema } from './primitives.ts';

const messages = (schema: z.ZodType, value: unknown) =>
  (schema.safeParse(value).error?.issues ?? []).map((issue) => issue.message);

describe('refusals as sentences', () => {
  it('name the field and say what it must be, never the schema’s words', () => {
    const schema = z.strictObject({
      title: z.string().min(1).max(5),
      firstName: z.string(),
      quantity: z.number().int().min(1),
      kind: z.enum(['pharmacy', 'courier']),
      email: z.email(),
      takenAt: z.iso.datetime(),
      tags: z.array(z.string()).max(1),
      isBlocked: z.boolean(),
    });
    expect(
      messages(schema, {
        title: 'too long',
        quantity: 1.5,
        kind: 'bakery',
        email: 'nobody',
        takenAt: 'yesterday',
        tags: ['a', 'b'],
        isBlocked: 'no',
        extra: 1,
      }),
    ).toEqual([
      'Title must be at most 5 characters.',
      'First name is required.',
      'Quantity must be a whole number.',
      'Kind must be one of: pharmacy, courier.',
      'Email must be an email address.',
      'Taken at must be a date and time such as 2026-11-25T09:00:00Z.',
      'Tags must have at most 1 item.',
      'Is blocked must be true or false.',
      'This field is not accepted: extra.',
    ]);
    expect(messages(z.object({ title: z.string().min(1) }), { title: '' })).toEqual([
      'Title must not be empty.',
    ]);
    expect(messages(z.object({ count: z.number().min(0) }), { count: -1 })).toEqual([
      'Count must be at least 0.',
    ]);
  });

  it('leave a message a schema sets itself as it is', () => {
    expect(messages(z.object({ id: uuidSchema }), { id: 'x' })).toEqual(['Must be a uuid']);
    expect(messages(z.object({ device: uuidSchema }), {})).toEqual(['Device is required.']);
    expect(messages(z.object({ note: text() }), { note: 'a\u0000' })).toEqual([
      'Must not contain NUL characters',
    ]);
  });

  it('name list items and nested fields by their own key', () => {
    expect(fieldName(['content', 2, 'quantity'])).toBe('Quantity');
    expect(fieldName(['content', 2])).toBe('Item 3 of content');
    expect(fieldName(['deliveryAddress'])).toBe('Delivery address');
    expect(fieldName(['serial_number'])).toBe('Serial number');
    expect(fieldName([])).toBe('The value');
  });
});
