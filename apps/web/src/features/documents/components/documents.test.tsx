// The Documents area, a document's page with the live signature, and the public verifier, with the API faked
// at the network edge (fetch, and XMLHttpRequest for uploads with progress).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Document, VerificationReport } from '@careplane/shared/documents/documents.contract';
import { fakeNetwork, json, type FakeNetwork } from '../../../test/network.ts';
import { makeUser, renderApp, resetSession, signIn } from '../../../test/app.tsx';

const me = makeUser();
const sha = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const id = '0190a0b0-0000-7000-8000-00000000d0c1';

const documentOf = (patch: Partial<Document> = {}): Document => ({
  id,
  createdAt: '2026-11-23T09:00:00.000Z',
  updatedAt: '2026-11-23T09:00:00.000Z',
  title: 'Care plan for Ann Example',
  file: { size: 2048, sha256: sha },
  signedFile: null,
  owner: { id: 'owner-id', name: 'Olivia Owner' },
  createdByUserId: 'owner-id',
  isSigned: false,
  parties: [{ userId: me.id, name: 'Ada Lovelace', state: 'pending', signedAt: null }],
  signingPartiesMetadata: [],
  access: { role: 'party', canSign: true, canShare: false, canDelete: false, hasSigned: false },
  ...patch,
});

const page = (items: Document[]) => json({ items, total: items.length, limit: 20, offset: 0 });

let network: FakeNetwork;

beforeEach(() => {
  resetSession();
  network = fakeNetwork().install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Documents area', () => {
  it('lists each scope from the API and keeps the scope in the address', async () => {
    network.on('GET', '/api/documents', (call) =>
      call.url.searchParams.get('filters') === 'scope~waiting'
        ? page([documentOf()])
        : page([
            documentOf({
              id: '0190a0b0-0000-7000-8000-00000000d0c2',
              title: 'Visit schedule',
              parties: [],
              access: { role: 'owner', canSign: true, canShare: true, canDelete: true, hasSigned: false },
            }),
          ]),
    );
    signIn(me);
    const { router } = renderApp('/documents?scope=waiting');
    const list = await screen.findByRole('list', { name: 'Waiting for my signature' });
    expect(within(list).getByRole('link', { name: 'Care plan for Ann Example' })).toBeDefined();
    expect(within(list).getByText('Waiting for your signature')).toBeDefined();
    expect(network.callsTo('GET', '/api/documents')[0]!.headers.authorization).toBe('Bearer access-token');

    fireEvent.click(screen.getByRole('tab', { name: 'My documents' }));
    // The previous page stays on screen until the new one arrives.
    expect(await screen.findByRole('link', { name: 'Visit schedule' })).toBeDefined();
    const own = screen.getByRole('list', { name: 'My documents' });
    expect(within(own).getByText('Not signed')).toBeDefined();
    expect(router.state.location.search).toBe('');
    expect(network.calls.map((call) => call.url.searchParams.get('filters')).filter(Boolean)).toEqual([
      'scope~waiting',
      'scope~own',
    ]);
  });

  it('says so when nothing waits for a signature', async () => {
    network.on('GET', '/api/documents', () => page([]));
    signIn(me);
    renderApp('/documents?scope=waiting');
    expect(await screen.findByText('Nothing is waiting for your signature.')).toBeDefined();
  });
});

describe("a document's page", () => {
  it('asks the phone, shows the code to compare, and turns to signed when the phone approved', async () => {
    const signed = documentOf({
      signedFile: { size: 12_000, sha256: 'ab'.repeat(32) },
      isSigned: true,
      parties: [
        { userId: me.id, name: 'Ada Lovelace', state: 'signed', signedAt: '2026-11-23T09:05:00.000Z' },
      ],
      signingPartiesMetadata: [
        {
          userId: me.id,
          name: 'Ada Lovelace',
          role: 'party',
          signedAt: '2026-11-23T09:05:00.000Z',
          certificateSerial: '0a1b2c3d4e5f60718293a4b5c6d7e8f9',
        },
      ],
      access: { role: 'party', canSign: false, canShare: false, canDelete: false, hasSigned: true },
    });
    const requestId = '0190a0b0-0000-7000-8000-00000000beef';
    network
      .on('GET', `/api/documents/${id}`, () => json(documentOf()))
      .on('POST', `/api/documents/${id}/sign`, () =>
        json({ requestId, expiresIn: 300, interval: 1, bindingMessage: 'KX 42' }),
      )
      .sequence('GET', `/api/documents/${id}/signing/${requestId}`, [
        () => json({ requestId, status: 'pending', expiresIn: 299 }),
        () => json({ requestId, status: 'signed', document: signed }),
      ]);
    signIn(me);
    renderApp(`/documents/${id}`);
    expect(await screen.findByRole('heading', { name: 'Care plan for Ann Example' })).toBeDefined();
    expect(screen.getByTestId('document-fingerprint').textContent).toBe('9f86d081…b0f00a08');
    expect(screen.getByRole('button', { name: 'Download the signed PDF' }).hasAttribute('disabled')).toBe(
      true,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Sign with my phone' }));
    expect((await screen.findByTestId('signing-binding-message')).textContent).toBe('KX 42');
    expect(screen.getByTestId('signing-state').textContent).toMatch(
      /^Waiting for your phone · code KX 42 · \d+ s left$/,
    );
    expect(await screen.findByTestId('signed-by-me', {}, { timeout: 8000 })).toBeDefined();
    expect(screen.getByTestId('document-state').textContent).toBe('Signed');
    expect(within(screen.getByTestId('signatures')).getByText('1. Ada Lovelace')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Download the signed PDF' }).hasAttribute('disabled')).toBe(
      false,
    );
    expect(network.callsTo('GET', `/api/documents/${id}/signing/${requestId}`).length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it('says plainly when the phone denied, and offers to ask again', async () => {
    const requestId = '0190a0b0-0000-7000-8000-00000000dead';
    network
      .on('GET', `/api/documents/${id}`, () => json(documentOf()))
      .on('POST', `/api/documents/${id}/sign`, () =>
        json({ requestId, expiresIn: 300, interval: 1, bindingMessage: 'PR 27' }),
      )
      .on('GET', `/api/documents/${id}/signing/${requestId}`, () => json({ requestId, status: 'denied' }));
    signIn(me);
    renderApp(`/documents/${id}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign with my phone' }));
    expect(
      await screen.findByText('You denied the signature on your phone. Nothing was signed.'),
    ).toBeDefined();
    expect(screen.getByRole('button', { name: 'Sign with my phone' })).toBeDefined();
  });

  it('shares with people picked by name and shows them as pending', async () => {
    const owned = documentOf({
      parties: [],
      owner: { id: me.id, name: 'Ada Lovelace' },
      createdByUserId: me.id,
      access: { role: 'owner', canSign: true, canShare: true, canDelete: true, hasSigned: false },
    });
    const nina = { id: '0190a0b0-0000-7000-8000-0000000000aa', name: 'Nina Nurse' };
    network
      .on('GET', `/api/documents/${id}`, () => json(owned))
      .on('GET', '/api/documents/parties', (call) =>
        json({ items: call.url.searchParams.get('search') === 'nin' ? [nina] : [] }),
      )
      .on('POST', `/api/documents/${id}/share`, () =>
        json({ ...owned, parties: [{ userId: nina.id, name: nina.name, state: 'pending', signedAt: null }] }),
      );
    signIn(me);
    renderApp(`/documents/${id}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    const people = await screen.findByRole('combobox', { name: 'People' });
    fireEvent.click(people);
    fireEvent.change(people, { target: { value: 'nin' } });
    // The search goes to the server (names only), after a short pause in the typing.
    await waitFor(() =>
      expect(
        network.callsTo('GET', '/api/documents/parties').map((call) => call.url.searchParams.get('search')),
      ).toContain('nin'),
    );
    // The dropdown's opening transition keeps it out of the accessibility tree in happy-dom: find it by text.
    fireEvent.click(await screen.findByText('Nina Nurse'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(JSON.parse(network.callsTo('POST', `/api/documents/${id}/share`)[0]!.body!)).toEqual({
      userIds: [nina.id],
    });
    expect(await screen.findByText('Nina Nurse')).toBeDefined();
    expect(screen.getByText('Pending')).toBeDefined();
    expect(screen.getByTestId('document-state').textContent).toBe('Waiting for 1 signature');
  });

  it('answers a document that is not shared with the caller as not found', async () => {
    network.on('GET', `/api/documents/${id}`, () =>
      json({ statusCode: 404, error: 'Not Found', message: 'Document not found' }, 404),
    );
    signIn(me);
    renderApp(`/documents/${id}`);
    expect(await screen.findByText('This document could not be found')).toBeDefined();
  });
});

/** XMLHttpRequest as the verifier uses it: progress events, then the answer given here. */
function fakeUpload(answer: { status: number; body: unknown }) {
  const sent: { url: string; headers: Record<string, string>; body: FormData | null }[] = [];
  class FakeXhr {
    upload: {
      onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
    } = {
      onprogress: null,
    };
    status = 0;
    response: unknown = null;
    responseType = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private url = '';
    private headers: Record<string, string> = {};
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    abort() {}
    send(body: FormData) {
      sent.push({ url: this.url, headers: this.headers, body });
      setTimeout(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 10, total: 10 });
        this.status = answer.status;
        this.response = answer.body;
        this.onload?.();
      }, 10);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

describe('the verifier', () => {
  it('is public: a dropped PDF is sent without a token and its verdict and signatures are shown', async () => {
    const report: VerificationReport = {
      fileSha256: sha,
      size: 12_000,
      fileKnownToPlatform: true,
      verdict: {
        status: 'authentic',
        summary: 'Authentic and untampered: signed by Olivia Owner on 23.11.2026 09:05 UTC.',
      },
      signatures: [
        {
          index: 1,
          fieldName: 'Signature1',
          signer: {
            commonName: 'Olivia Owner',
            username: 'olivia@careplane.local',
            email: null,
            serialNumber: '0a1b',
            fingerprint: 'ff',
          },
          signingTime: '2026-11-23T09:05:00.000Z',
          intact: true,
          supported: true,
          coversWholeFile: true,
          laterRevisionAdded: false,
          chainsToPlatformCa: true,
          knownToPlatform: true,
          revisionSha256: sha,
          problems: [],
        },
      ],
    };
    const sent = fakeUpload({ status: 200, body: report });
    renderApp('/verify');
    expect(await screen.findByRole('heading', { name: 'Verify a document' })).toBeDefined();
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    const file = new File(['%PDF-1.7'], 'signed.pdf', { type: 'application/pdf' });
    fireEvent.change(input, { target: { files: [file] } });
    const verdict = await screen.findByTestId('verdict');
    expect(within(verdict).getByText('Authentic and untampered')).toBeDefined();
    const signature = screen.getByRole('article', { name: 'Signature 1' });
    expect(within(signature).getByText('1. Olivia Owner')).toBeDefined();
    expect(within(signature).getByText('Its certificate was issued by the Careplane CA')).toBeDefined();
    expect(within(signature).getByText('Careplane holds this signed version')).toBeDefined();
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toBe('http://careplane.test/api/documents/verify');
    expect(sent[0]!.headers.authorization).toBeUndefined();
    expect((sent[0]!.body!.get('file') as File).name).toBe('signed.pdf');
  });

  it("shows the server's refusal", async () => {
    fakeUpload({
      status: 415,
      body: { statusCode: 415, error: 'Unsupported Media Type', message: 'The file is not a PDF' },
    });
    renderApp('/verify');
    await screen.findByRole('heading', { name: 'Verify a document' });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'x.pdf', { type: 'application/pdf' })] } });
    expect(await screen.findByText('The file is not a PDF')).toBeDefined();
  });

  it('is linked from the landing page', async () => {
    renderApp('/');
    const link = await screen.findByRole('link', { name: 'Verify a document' });
    expect(link.getAttribute('href')).toBe('/verify');
  });
});
