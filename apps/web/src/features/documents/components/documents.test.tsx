// The Documents area, a document's page with the live signature, and the public verifier, with the API faked
// at the network edge (fetch, and XMLHttpRequest for uploads with progress).
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  Document,
  SignatureReport,
  VerificationReport,
} from '@careplane/shared/documents/documents.contract';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';

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

/** A signature as the verifier reports it: intact, vouched for, covering the whole file unless told. */
const signatureOf = (patch: Partial<SignatureReport> = {}): SignatureReport => ({
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
  covers: { revision: 1, revisions: 1, bytes: 12_000 },
  certification: null,
  changesAfter: [],
  changedAfterSigning: false,
  chainsToPlatformCa: true,
  signerWithdrawn: false,
  knownToPlatform: true,
  revisionSha256: sha,
  problems: [],
  ...patch,
});

const reportOf = (patch: Partial<VerificationReport> = {}): VerificationReport => ({
  fileSha256: sha,
  size: 12_000,
  fileKnownToPlatform: true,
  verdict: {
    status: 'authentic',
    summary: 'Authentic and untampered: signed by Olivia Owner on 23.11.2026 09:05 UTC.',
    changedAfter: null,
  },
  allowedChanges: {
    level: 2,
    certifiedBy: null,
    description: 'form filling and signing (no certification signature: the default)',
  },
  signatures: [signatureOf()],
  ...patch,
});

const ann = {
  commonName: 'Ann Lee',
  username: 'ann@careplane.local',
  email: null,
  serialNumber: '0a1c',
  fingerprint: 'ee',
};
const bob = {
  commonName: 'Bob Okafor',
  username: 'bob@careplane.local',
  email: null,
  serialNumber: '0a1d',
  fingerprint: 'dd',
};

/** Two signers, Ann then Bob, the way the platform writes them. */
const twoSigners = (annAfter: SignatureReport['changesAfter'], revisions = 2): SignatureReport[] => [
  signatureOf({
    signer: ann,
    signingTime: '2026-11-23T14:02:00.000Z',
    coversWholeFile: false,
    laterRevisionAdded: true,
    covers: { revision: 1, revisions, bytes: 18_526 },
    changesAfter: annAfter,
    changedAfterSigning: annAfter.some((change) => !change.allowed),
    knownToPlatform: false,
  }),
  signatureOf({
    index: 2,
    fieldName: 'Signature2',
    signer: bob,
    signingTime: '2026-11-24T08:30:00.000Z',
    covers: { revision: revisions, revisions, bytes: 35_849 },
    knownToPlatform: false,
  }),
];

async function dropOnVerifier(report: VerificationReport) {
  const sent = fakeUpload({ status: 200, body: report });
  renderApp('/verify');
  await screen.findByRole('heading', { name: 'Verify a document' });
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, {
    target: { files: [new File(['%PDF-1.7'], 'signed.pdf', { type: 'application/pdf' })] },
  });
  return { sent, verdict: await screen.findByTestId('verdict') };
}

describe('the verifier', () => {
  it('says nothing of who made a file that holds no signature', async () => {
    const { verdict } = await dropOnVerifier(
      reportOf({
        fileKnownToPlatform: false,
        verdict: {
          status: 'unsigned',
          summary: 'Not signed: the file contains no signatures.',
          changedAfter: null,
        },
        signatures: [],
      }),
    );
    expect(within(verdict).getByText(/contains no signatures/)).toBeDefined();
    expect(screen.queryByText(/exact file/)).toBeNull();
  });

  it('is public: a dropped PDF is sent without a token and its verdict and signatures are shown', async () => {
    const { sent, verdict } = await dropOnVerifier(reportOf());
    expect(within(verdict).getByText('Authentic and untampered')).toBeDefined();
    const signature = screen.getByRole('article', { name: 'Signature 1' });
    expect(within(signature).getByText('1. Olivia Owner')).toBeDefined();
    expect(within(signature).getByText('Its certificate was issued by the Careplane CA')).toBeDefined();
    expect(within(signature).getByText('Careplane completed this signature')).toBeDefined();
    expect(screen.getByText('Careplane completed this exact file')).toBeDefined();
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toBe('http://careplane.test/api/documents/verify');
    expect(sent[0]!.headers.authorization).toBeUndefined();
    expect((sent[0]!.body!.get('file') as File).name).toBe('signed.pdf');
  });

  describe('for a viewer in Bangkok', () => {
    beforeEach(() => {
      const options = new Intl.DateTimeFormat().resolvedOptions();
      vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
        ...options,
        timeZone: 'Asia/Bangkok',
      });
    });
    afterEach(() => vi.restoreAllMocks());

    it('shows a clean two-signer file without a red mark, each signature with what it covers, all times in one named zone', async () => {
      const { verdict } = await dropOnVerifier(
        reportOf({
          fileKnownToPlatform: false,
          verdict: {
            status: 'authentic',
            summary:
              'Authentic and untampered: signed by Ann Lee (ann@careplane.local) on 23.11.2026 14:02 UTC, ' +
              'then by Bob Okafor (bob@careplane.local) on 24.11.2026 08:30 UTC.',
            changedAfter: null,
          },
          signatures: twoSigners([
            { revision: 2, kind: 'signature', description: 'added signature 2 (Bob Okafor)', allowed: true },
          ]),
        }),
      );
      expect(within(verdict).getByText('Authentic and untampered')).toBeDefined();
      // The verdict's times are the cards' times: the viewer's zone, named, never the server's UTC.
      expect(verdict).toHaveTextContent(
        'Signed by Ann Lee (ann@careplane.local) on 23.11.2026 21:02 GMT+07:00 (Asia/Bangkok), then by ' +
          'Bob Okafor (bob@careplane.local) on 24.11.2026 15:30 GMT+07:00 (Asia/Bangkok).',
      );
      expect(screen.getAllByTestId('signing-time').map((time) => time.textContent)).toEqual([
        '23.11.2026 21:02 GMT+07:00 (Asia/Bangkok)',
        '24.11.2026 15:30 GMT+07:00 (Asia/Bangkok)',
      ]);
      expect(screen.getByTestId('time-zone')).toHaveTextContent('Times in Asia/Bangkok');
      const report = screen.getByTestId('verification-report');
      expect(report.textContent).not.toMatch(/UTC/);

      const first = screen.getByRole('article', { name: 'Signature 1' });
      expect(
        within(first).getByText('It covers revision 1 of 2: the file as it was when signed'),
      ).toBeDefined();
      const later = within(first).getByRole('list', { name: 'Changes after signature 1' });
      expect(later).toHaveTextContent('allowedRevision 2 of 2: added signature 2 (Bob Okafor)');
      const second = screen.getByRole('article', { name: 'Signature 2' });
      expect(within(second).getByText('It covers the whole file (revision 2 of 2)')).toBeDefined();
      // No red anywhere: not a badge, not a list, not an alert. Not holding a file is information, in gray.
      expect(report.outerHTML).not.toMatch(/mantine-color-red/);
      expect(within(report).queryByRole('alert')).toBeNull();
      expect(within(first).getByText('Careplane did not complete this signature')).toBeDefined();
    });

    it('says "Changed after <name> signed" first and in the card when content changed before a later signature', async () => {
      await dropOnVerifier(
        reportOf({
          verdict: {
            status: 'modified-after-signing',
            summary:
              'Changed after Ann Lee (ann@careplane.local) signed: revision 2 of 3 changed the content of page 1. ' +
              'The later signature vouches only for what its signer signed, not for what Ann Lee signed.',
            changedAfter: { signature: 1, revision: 2, description: 'changed the content of page 1' },
          },
          signatures: twoSigners(
            [
              { revision: 2, kind: 'other', description: 'changed the content of page 1', allowed: false },
              {
                revision: 3,
                kind: 'signature',
                description: 'added signature 2 (Bob Okafor)',
                allowed: true,
              },
            ],
            3,
          ),
        }),
      );
      const verdict = screen.getByTestId('verdict');
      expect(within(verdict).getByText('Changed after Ann Lee signed')).toBeDefined();
      expect(verdict).toHaveTextContent(
        'Revision 2 of 3 changed the content of page 1. The later signature vouches only for what its signer ' +
          'signed, not for what Ann Lee signed.',
      );
      expect(verdict.outerHTML).toMatch(/mantine-color-red/);
      const first = screen.getByRole('article', { name: 'Signature 1' });
      const alert = within(first).getByRole('alert');
      expect(within(alert).getByText('Changed after Ann Lee signed')).toBeDefined();
      expect(alert).toHaveTextContent('Revision 2 of 3 changed the content of page 1');
      const later = within(first).getByRole('list', { name: 'Changes after signature 1' });
      expect(within(later).getByText('not allowed')).toBeDefined();
      // Bob's own signature is fine: nothing changed after it.
      const second = screen.getByRole('article', { name: 'Signature 2' });
      expect(within(second).queryByRole('alert')).toBeNull();
    });
  });

  it('does not let the later signature seem to vouch for a change that came after it too', async () => {
    const change = {
      revision: 3,
      kind: 'other',
      description: 'changed the content of page 1',
      allowed: false,
    } as const;
    const [annSigned, bobSigned] = twoSigners(
      [
        { revision: 2, kind: 'signature', description: 'added signature 2 (Bob Okafor)', allowed: true },
        change,
      ],
      3,
    );
    await dropOnVerifier(
      reportOf({
        verdict: {
          status: 'modified-after-signing',
          summary:
            'Changed after Ann Lee (ann@careplane.local) signed: revision 3 of 3 changed the content of page 1. ' +
            'The change also came after the later signature.',
          changedAfter: { signature: 1, revision: 3, description: 'changed the content of page 1' },
        },
        signatures: [
          annSigned!,
          {
            ...bobSigned!,
            covers: { revision: 2, revisions: 3, bytes: 35_849 },
            changesAfter: [change],
            changedAfterSigning: true,
          },
        ],
      }),
    );
    const verdict = screen.getByTestId('verdict');
    expect(verdict).toHaveTextContent(
      'Revision 3 of 3 changed the content of page 1. The change also came after the later signature.',
    );
    expect(verdict.textContent).not.toMatch(/vouch/);
    const second = screen.getByRole('article', { name: 'Signature 2' });
    expect(within(second).getByText('Changed after Bob Okafor signed')).toBeDefined();
  });

  it("says Careplane no longer vouches for a signer's phone, beside the certificate that still chains", async () => {
    const problem =
      "The signer's phone was revoked, and Careplane did not complete this signature: it cannot tell when it was made";
    const { verdict } = await dropOnVerifier(
      reportOf({
        verdict: {
          status: 'untrusted',
          summary: `The signed bytes are intact, but signature 1 (Olivia Owner (olivia@careplane.local)) is not vouched for by Careplane: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}.`,
          changedAfter: null,
        },
        signatures: [signatureOf({ signerWithdrawn: true, knownToPlatform: false, problems: [problem] })],
      }),
    );
    expect(within(verdict).getByText('Intact, but not vouched for by Careplane')).toBeDefined();
    const signature = screen.getByRole('article', { name: 'Signature 1' });
    expect(within(signature).getByText('Its certificate was issued by the Careplane CA')).toBeDefined();
    const withdrawn = within(signature).getByText("Careplane no longer vouches for the signer's phone");
    expect(withdrawn.closest('li')?.textContent).toBe("noCareplane no longer vouches for the signer's phone");
    expect(within(signature).getByText(problem)).toBeDefined();
  });

  it("says nothing of the signer's phone while Careplane vouches for it", async () => {
    await dropOnVerifier(reportOf());
    const signature = screen.getByRole('article', { name: 'Signature 1' });
    expect(within(signature).queryByText(/signer's phone/)).toBeNull();
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

  it('never leaves a verdict on screen beside a file it refused: the verdict was of another file', async () => {
    const { verdict } = await dropOnVerifier(reportOf());
    expect(within(verdict).getByText('Authentic and untampered')).toBeDefined();
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('notes.txt is not a PDF. Choose a PDF file.');
    expect(screen.queryByTestId('verdict')).toBeNull();
    expect(screen.queryByText('Authentic and untampered')).toBeNull();
  });

  it('says so by name when the file chosen is not a PDF, and sends nothing', async () => {
    const sent = fakeUpload({ status: 200, body: reportOf() });
    renderApp('/verify');
    await screen.findByRole('heading', { name: 'Verify a document' });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('notes.txt is not a PDF. Choose a PDF file.');
    expect(sent).toHaveLength(0);

    // A PDF the system gives no type is taken by its name, and the refusal goes.
    fireEvent.change(input, { target: { files: [new File(['%PDF-1.7'], 'scan.pdf', { type: '' })] } });
    await screen.findByTestId('verdict');
    expect(screen.queryByText(/is not a PDF/)).toBeNull();
    expect((sent[0]!.body!.get('file') as File).name).toBe('scan.pdf');
  });

  it('is linked from the landing page', async () => {
    renderApp('/');
    const link = await screen.findByRole('link', { name: 'Verify a document' });
    expect(link.getAttribute('href')).toBe('/verify');
  });
});

describe('in Thai', () => {
  it('shows the Documents area, its scopes and empty state in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    network.on('GET', '/api/documents', () => page([]));
    signIn(me);
    renderApp('/documents?scope=waiting');
    expect(await screen.findByText('ไม่มีเอกสารที่รอคุณลงนาม')).toBeDefined();
    expect(screen.getByRole('heading', { level: 1, name: 'เอกสาร' })).toBeDefined();
    expect(screen.getByRole('tab', { name: 'เอกสารของฉัน' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'อัปโหลด PDF' })).toBeDefined();
  });

  it('asks the phone in Thai, with the code to compare inside the sentence', async () => {
    await act(() => i18next.changeLanguage('th'));
    const requestId = '0190a0b0-0000-7000-8000-00000000beef';
    network
      .on('GET', `/api/documents/${id}`, () => json(documentOf()))
      .on('POST', `/api/documents/${id}/sign`, () =>
        json({ requestId, expiresIn: 300, interval: 1, bindingMessage: 'KX 42' }),
      )
      .on('GET', `/api/documents/${id}/signing/${requestId}`, () =>
        json({ requestId, status: 'pending', expiresIn: 299 }),
      );
    signIn(me);
    renderApp(`/documents/${id}`);
    expect(await screen.findByRole('heading', { name: 'ลายเซ็นของคุณ' })).toBeDefined();
    expect(screen.getByTestId('document-state').textContent).toBe('รอคุณลงนาม');
    fireEvent.click(screen.getByRole('button', { name: 'ลงนามด้วยโทรศัพท์ของฉัน' }));
    const code = await screen.findByTestId('signing-binding-message');
    expect(code.textContent).toBe('KX 42');
    expect(code.parentElement?.textContent).toMatch(/^เปิดแอป Careplane แล้วอนุมัติการลงนามเมื่อแอปแสดงรหัส KX 42 /);
    expect(screen.getByTestId('signing-state').textContent).toMatch(/^กำลังรอโทรศัพท์ของคุณ · รหัส KX 42/);
  });

  it('reports a verification in Thai without saying more than was checked', async () => {
    await act(() => i18next.changeLanguage('th'));
    const sent = fakeUpload({
      status: 200,
      body: reportOf({ signatures: [signatureOf({ chainsToPlatformCa: false, knownToPlatform: false })] }),
    });
    renderApp('/verify');
    await screen.findByTestId('pdf-dropzone');
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['%PDF-1.7'], 'signed.pdf', { type: 'application/pdf' })] },
    });
    const verdict = await screen.findByTestId('verdict');
    expect(within(verdict).getByText('ของแท้และไม่ถูกแก้ไข')).toBeDefined();
    const signature = screen.getByRole('article', { name: 'ลายเซ็นที่ 1' });
    expect(within(signature).getByText('ใบรับรองของลายเซ็นนี้ไม่ได้ออกโดย CA ของ Careplane')).toBeDefined();
    expect(within(signature).getByText('Careplane ไม่ได้เป็นผู้ทำลายมือชื่อนี้ให้สมบูรณ์')).toBeDefined();
    expect(within(signature).queryByText('Careplane ไม่รับรองโทรศัพท์ของผู้ลงนามนี้แล้ว')).toBeNull();
    expect(sent[0]!.headers['accept-language']).toBe('th');
  });

  it("says in Thai that Careplane no longer vouches for the signer's phone", async () => {
    await act(() => i18next.changeLanguage('th'));
    fakeUpload({ status: 200, body: reportOf({ signatures: [signatureOf({ signerWithdrawn: true })] }) });
    renderApp('/verify');
    await screen.findByTestId('pdf-dropzone');
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['%PDF-1.7'], 'signed.pdf', { type: 'application/pdf' })] },
    });
    await screen.findByTestId('verdict');
    const signature = screen.getByRole('article', { name: 'ลายเซ็นที่ 1' });
    expect(within(signature).getByText('Careplane ไม่รับรองโทรศัพท์ของผู้ลงนามนี้แล้ว')).toBeDefined();
  });
});
