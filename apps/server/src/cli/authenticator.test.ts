// What the command-line authenticator prints before it answers (a document to sign shows its title and the
// file's fingerprint to compare with the console), how it lists pending requests, and how a typed code matches.
import { describe, expect, it } from 'vitest';
import type { PendingRequest } from '@careplane/shared/authenticator/protocol';
import { codeKey, describeRequest, listRequests, requestsWithCode } from './authenticator.js';

describe('describeRequest', () => {
  it('shows the document, its shortened and full SHA-256 and the signing time of a document signature', () => {
    const sha = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
    const lines = describeRequest({
      id: '0190a0b0-0000-7000-8000-00000000beef',
      kind: 'resource',
      clientId: 'careplane-console',
      clientName: 'Careplane console',
      bindingMessage: 'KX 42',
      nonce: 'n',
      createdAt: '2026-11-23T09:00:00.000Z',
      expiresAt: '2026-11-23T09:05:00.000Z',
      details: {
        action: 'document.sign',
        resource: 'documents/0190a0b0-0000-7000-8000-00000000beef',
        description: 'Sign the document "Care plan"',
        title: 'Care plan',
        documentSha256: sha,
        signingTime: '2026-11-23T09:00:00.000Z',
      },
    });
    expect(lines).toEqual(
      expect.arrayContaining([
        'Authorization request from Careplane console (careplane-console)',
        '  Binding message: KX 42',
        '  Document: Care plan',
        `  File SHA-256: 9f86d081…b0f00a08 (compare with the console; full: ${sha})`,
        '  Signing time: 2026-11-23T09:00:00.000Z',
      ]),
    );
  });
});

const asked = (patch: Partial<PendingRequest>): PendingRequest => ({
  id: '0190a0b0-0000-7000-8000-000000000001',
  kind: 'login',
  clientId: 'careplane-console',
  clientName: 'Careplane console',
  bindingMessage: 'AB 12',
  details: { scope: 'openid' },
  nonce: 'n',
  createdAt: '2026-11-23T09:00:00.000Z',
  expiresAt: '2026-11-23T09:02:00.000Z',
  ...patch,
});

describe('codeKey and requestsWithCode', () => {
  it('compare codes as a person types them: case and spaces do not count', () => {
    const mine = asked({ bindingMessage: 'AB 12' });
    const other = asked({ id: '0190a0b0-0000-7000-8000-000000000002', bindingMessage: 'AB 13' });
    const none = asked({ id: '0190a0b0-0000-7000-8000-000000000003', bindingMessage: null });
    for (const typed of ['AB 12', 'ab12', ' a b 1 2 ', 'Ab\t12'])
      expect(requestsWithCode([mine, other, none], typed)).toEqual([mine]);
    expect(codeKey(' ab 12 ')).toBe('AB12');
    expect(requestsWithCode([mine, other, none], 'AB 1')).toEqual([]);
    expect(requestsWithCode([none], '')).toEqual([]);
  });
});

describe('listRequests', () => {
  it("keeps the server's order and shows each code, what asks and the time left", () => {
    const now = Date.parse('2026-11-23T09:00:15.000Z');
    const lines = listRequests(
      [
        asked({ bindingMessage: 'AB 12', expiresAt: '2026-11-23T09:02:00.000Z' }),
        asked({
          id: '0190a0b0-0000-7000-8000-000000000002',
          kind: 'resource',
          bindingMessage: 'KX 42',
          details: { action: 'document.sign', title: 'Care plan' },
          expiresAt: '2026-11-23T09:00:20.000Z',
        }),
        asked({
          id: '0190a0b0-0000-7000-8000-000000000003',
          kind: 'resource',
          bindingMessage: null,
          details: { action: 'care-plan.approve' },
          expiresAt: '2026-11-23T09:00:00.000Z',
        }),
      ],
      now,
    );
    expect(lines).toEqual([
      '  AB 12      Sign-in to Careplane console                                 1:45 left',
      '  KX 42      Signature of the document "Care plan" for Careplane console  0:05 left',
      '  (no code)  Approval of care-plan.approve for Careplane console          0:00 left',
      '  A request without a code can be answered only in the authenticator app.',
    ]);
  });
});
