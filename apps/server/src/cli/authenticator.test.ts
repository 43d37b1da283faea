// What the command-line authenticator prints before it answers: a document to sign shows its title and the
// file's fingerprint to compare with the console.
import { describe, expect, it } from 'vitest';
import { describeRequest } from './authenticator.js';

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
