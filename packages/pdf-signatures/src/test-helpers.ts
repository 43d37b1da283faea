// Shared set-up of the signing tests (here, and the server's through `@careplane/pdf-signatures/testing`): a CA,
// phone keys it certifies, signing the way the phone does, and poppler's pdfsig as the outside judge.
import { execFile } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createCertificateAuthority,
  loadCertificateAuthority,
  type CertificateAuthority,
  type IssuedCertificate,
  type SignerIdentity,
  type SignerPublicKey,
} from './certificate-authority.js';
import { completeSignature, prepareSignature, type PrepareSignatureOptions } from './pdf-signing.js';

export const TEST_PASSPHRASE = 'a passphrase for tests only';

/** A CA for tests; `issuedAt` pins its validity for tests whose signing times are fixed dates. */
export async function testAuthority(commonName?: string, issuedAt?: Date): Promise<CertificateAuthority> {
  const stored = await createCertificateAuthority({
    passphrase: TEST_PASSPHRASE,
    kdfIterations: 100_000,
    ...(commonName ? { commonName } : {}),
    ...(issuedAt ? { now: issuedAt } : {}),
  });
  return loadCertificateAuthority(stored, TEST_PASSPHRASE);
}

/** A phone: a P-256 key made with WebCrypto, as the authenticator makes it, and its certificate. */
export interface TestSigner {
  identity: SignerIdentity;
  privateKey: webcrypto.CryptoKey;
  publicJwk: SignerPublicKey;
  certificate: IssuedCertificate;
  /** ECDSA P-256 / SHA-256 over the bytes, in WebCrypto's P1363 form (64 bytes). */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

export async function testSigner(
  ca: CertificateAuthority,
  identity: SignerIdentity,
  issuedAt?: Date,
): Promise<TestSigner> {
  const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ]);
  const jwk = (await webcrypto.subtle.exportKey('jwk', keys.publicKey)) as SignerPublicKey;
  const publicJwk: SignerPublicKey = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  const certificate = await ca.issueSignerCertificate({
    publicJwk,
    identity,
    ...(issuedAt ? { now: issuedAt } : {}),
  });
  return {
    identity,
    privateKey: keys.privateKey,
    publicJwk,
    certificate,
    sign: async (data) =>
      new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, data)),
  };
}

export const ANN: SignerIdentity = { firstName: 'Ann', lastName: 'Lee', username: 'ann@careplane.local' };
export const BOB: SignerIdentity = { firstName: 'Bob', lastName: 'Okafor', username: 'bob@careplane.local' };

/** Both steps, with the phone's signature in between. */
export async function signPdf(
  pdf: Uint8Array,
  signer: TestSigner,
  ca: CertificateAuthority,
  options: Partial<PrepareSignatureOptions> = {},
): Promise<Uint8Array> {
  const prepared = prepareSignature(pdf, {
    signerName: `${signer.identity.firstName} ${signer.identity.lastName}`,
    signingTime: new Date(),
    signerCertificate: signer.certificate.der,
    caCertificate: ca.certificateDer,
    reason: 'Approved',
    ...options,
  });
  return completeSignature(prepared, { signature: await signer.sign(prepared.toBeSigned) });
}

// ---------------------------------------------------------------------------------------------------------
// pdfsig

export interface PdfsigSignature {
  fieldName: string | undefined;
  commonName: string | undefined;
  validation: string | undefined;
  totalDocumentSigned: boolean;
  subFilter: string | undefined;
}

const INSTALL_HINT = 'pdfsig (poppler) is missing: install it with `apt-get install -y poppler-utils`';

/** Runs `pdfsig -nocert` (certificate trust is not what is judged; digests and signatures are) on the bytes. */
export async function pdfsig(bytes: Uint8Array): Promise<{ output: string; signatures: PdfsigSignature[] }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'careplane-pdfsig-'));
  const file = path.join(dir, 'document.pdf');
  try {
    await writeFile(file, bytes);
    const output = await new Promise<string>((resolve, reject) => {
      execFile('pdfsig', ['-nocert', file], { timeout: 20_000 }, (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT')
          return reject(new Error(INSTALL_HINT));
        // pdfsig exits non-zero for a file without signatures; its output still says so.
        if (error && !stdout) return reject(new Error(`pdfsig failed: ${stderr || error.message}`));
        resolve(stdout + stderr);
      });
    });
    return { output, signatures: parsePdfsig(output) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function parsePdfsig(output: string): PdfsigSignature[] {
  return output
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => {
      const field = (label: string) => new RegExp(`^\\s*- ${label}: (.*)$`, 'm').exec(block)?.[1]?.trim();
      return {
        fieldName: field('Signature Field Name'),
        commonName: field('Signer Certificate Common Name'),
        validation: field('Signature Validation'),
        totalDocumentSigned: /^\s*- Total document signed$/m.test(block),
        subFilter: field('Signature Type'),
      };
    });
}
