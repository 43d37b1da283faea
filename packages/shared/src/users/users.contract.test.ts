// A person's record takes dates and levels that make sense: no birth after today, none before 1900, no identity
// document that expires before it was issued or was issued in the future, an assurance level of the sign-in's.
import { describe, expect, it } from 'vitest';
import { userCreateSchema, userUpdateSchema } from './users.contract.ts';

const base = { username: 'somchai@careplane.local' };
const tomorrowsTomorrow = new Date(Date.now() + 2 * 86_400_000 + 14 * 3_600_000).toISOString().slice(0, 10);
const issue = (body: unknown) => {
  const parsed = userCreateSchema.safeParse({ ...base, ...(body as object) });
  return parsed.success ? undefined : parsed.error.issues.map(({ path, message }) => ({ path, message }));
};

describe('a user record', () => {
  it('takes a birth date from 1900 to today, and refuses a later or an earlier one', () => {
    expect(issue({ additionalInfo: { dateOfBirth: '1948-03-02' } })).toBeUndefined();
    expect(issue({ additionalInfo: { dateOfBirth: '1900-01-01' } })).toBeUndefined();
    expect(issue({ additionalInfo: { dateOfBirth: new Date().toISOString().slice(0, 10) } })).toBeUndefined();
    expect(issue({ additionalInfo: { dateOfBirth: '2099-01-01' } })).toEqual([
      { path: ['additionalInfo', 'dateOfBirth'], message: 'Must not be in the future' },
    ]);
    expect(issue({ additionalInfo: { dateOfBirth: tomorrowsTomorrow } })?.[0]?.message).toBe(
      'Must not be in the future',
    );
    expect(issue({ additionalInfo: { dateOfBirth: '1899-12-31' } })).toEqual([
      { path: ['additionalInfo', 'dateOfBirth'], message: 'Must not be earlier than 1900-01-01' },
    ]);
  });

  it('refuses an identity document that expires before it was issued, or was issued in the future', () => {
    const dates = (identityDocumentIssueDate: string, identityDocumentExpiryDate: string) => ({
      additionalInfo: { identityDocumentIssueDate, identityDocumentExpiryDate },
    });
    expect(issue(dates('2020-05-01', '2030-05-01'))).toBeUndefined();
    expect(issue(dates('2020-05-01', '2020-05-01'))).toBeUndefined();
    const backwards = [
      {
        path: ['additionalInfo', 'identityDocumentExpiryDate'],
        message: 'Must not be before the issue date',
      },
    ];
    expect(issue(dates('2030-05-01', '2020-05-01'))?.slice(-1)).toEqual(backwards);
    expect(issue(dates('2021-05-01', '2020-05-01'))).toEqual(backwards);
    expect(issue(dates('2099-05-01', '2100-05-01'))).toEqual([
      { path: ['additionalInfo', 'identityDocumentIssueDate'], message: 'Must not be in the future' },
    ]);
    // A change names the dates it changes; the two sent together are checked the same way.
    expect(
      userUpdateSchema.safeParse({
        additionalInfo: { identityDocumentIssueDate: '2021-05-01', identityDocumentExpiryDate: '2020-05-01' },
      }).success,
    ).toBe(false);
    expect(
      userUpdateSchema.safeParse({ additionalInfo: { identityDocumentExpiryDate: '2020-05-01' } }).success,
    ).toBe(true);
  });

  it('takes an identity assurance level of the sign-in (low, substantial, high), or none', () => {
    for (const level of ['low', 'substantial', 'high', null]) {
      expect(issue({ identityAssuranceLevel: level }), String(level)).toBeUndefined();
    }
    expect(issue({ identityAssuranceLevel: 'bogus' })?.[0]?.path).toEqual(['identityAssuranceLevel']);
    expect(userUpdateSchema.safeParse({ identityAssuranceLevel: 'bogus' }).success).toBe(false);
  });
});
