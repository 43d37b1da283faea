// A phone number is kept as people write it, and refused when no one could dial it.
import { describe, expect, it } from 'vitest';
import { telUri } from './phone-numbers.ts';
import { PHONE_NUMBER_MESSAGE, phoneNumberSchema } from './primitives.ts';
import { patientProfileCreateSchema, userUpdateSchema } from '../users/users.contract.ts';
import { localizeIssue } from '../i18n/validation-texts.ts';

const schema = phoneNumberSchema();

describe('a phone number', () => {
  it.each([
    '+66 81 234 5678',
    '+66812345678',
    '081-234-5678',
    '02-123-4567 ต่อ 12',
    '(02) 123 4567',
    '+1 (555) 010.0199 ext. 7',
    '02 555 0101 x12',
    '1669',
    '191',
    ' 081 234 5678 ',
  ])('takes %j as written', (written) => {
    expect(schema.parse(written)).toBe(written);
  });

  it('takes an empty text, which removes the number', () => {
    expect(schema.parse('')).toBe('');
  });

  it.each([
    'call me maybe',
    'n/a',
    '12',
    '+',
    '--',
    '081 234 5678 or 02 555 0101',
    '++66 81 234 5678',
    '66+81',
    'ext. 12',
    '081 ต่อ',
  ])('refuses %j with a sentence that says how to write one', (written) => {
    const result = schema.safeParse(written);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([PHONE_NUMBER_MESSAGE]);
  });

  it("is checked on a user's number and an emergency contact's, and named in Thai", () => {
    const refused = userUpdateSchema.safeParse({ phoneNumber: 'call me maybe' });
    expect(refused.error?.issues).toMatchObject([{ path: ['phoneNumber'], message: PHONE_NUMBER_MESSAGE }]);
    expect(localizeIssue(refused.error!.issues[0]!, 'th')).toMatch(
      /^หมายเลขโทรศัพท์ ต้องเป็นหมายเลขโทรศัพท์: ตัวเลข/,
    );
    expect(userUpdateSchema.safeParse({ phoneNumber: '1'.repeat(33) }).success).toBe(false);
    const contact = patientProfileCreateSchema.safeParse({
      status: 'enrolled',
      emergencyContacts: [{ name: 'Somchai', phoneNumber: 'ask the neighbour' }],
    });
    expect(contact.error?.issues).toMatchObject([
      { path: ['emergencyContacts', 0, 'phoneNumber'], message: PHONE_NUMBER_MESSAGE },
    ]);
  });

  it('is dialled with its extension apart, never run onto the number', () => {
    expect(telUri('+66 81 234 5678')).toBe('tel:+66812345678');
    expect(telUri('02-123-4567 ต่อ 12')).toBe('tel:021234567;ext=12');
    expect(telUri('+1 (555) 010.0199 ext. 7')).toBe('tel:+15550100199;ext=7');
    expect(telUri('1669')).toBe('tel:1669');
  });
});
