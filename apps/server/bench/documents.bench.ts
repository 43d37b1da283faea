// npm run bench:documents — signing and verifying PDFs of 1 MB and 10 MB (pdf-lib documents whose size comes
// from photo-like image streams), each beside SHA-256 of the same bytes (the floor: no signature can cost less
// than reading the file once), alternating, printed as medians in milliseconds and as ratios to the floor.
//
// Signing is the whole two-step path with a local WebCrypto P-256 key standing in for the phone:
// prepareSignature, the phone's signature over the signed attributes, completeSignature.
// Options: --rounds n (default 9), --sizes 1,10 (MB). BENCH_SMOKE=1: one round of 1 MB.
// Aims (10 MB): sign under 300 ms, verify under 150 ms.
import { createHash, webcrypto } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { PublicJwk } from '@careplane/shared/authenticator/protocol';
import {
  completeSignature,
  createCertificateAuthority,
  loadCertificateAuthority,
  prepareSignature,
  verifyPdf,
} from '@careplane/pdf-signatures';
import { createLargeSamplePdf } from '@careplane/pdf-signatures/samples';
import { SMOKE, emitRow } from './rows.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: SMOKE ? '1' : '9' },
    sizes: { type: 'string', default: SMOKE ? '1' : '1,10' },
  },
});
const rounds = Number(args.rounds);
const sizes = args.sizes.split(',').map(Number);

const passphrase = 'benchmark passphrase, not a secret';
const ca = await loadCertificateAuthority(await createCertificateAuthority({ passphrase }), passphrase);
const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
  'sign',
  'verify',
]);
const publicJwk = (await webcrypto.subtle.exportKey('jwk', keys.publicKey)) as PublicJwk;
const certificate = await ca.issueSignerCertificate({
  publicJwk,
  identity: { firstName: 'Ann', lastName: 'Lee', username: 'ann@careplane.local' },
});

async function sign(pdf: Uint8Array) {
  const t0 = performance.now();
  const prepared = prepareSignature(pdf, {
    signerName: 'Ann Lee',
    signingTime: new Date(),
    signerCertificate: certificate.der,
    caCertificate: ca.certificateDer,
  });
  const t1 = performance.now();
  const signature = new Uint8Array(
    await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, prepared.toBeSigned),
  );
  const t2 = performance.now();
  const signed = completeSignature(prepared, { signature });
  const t3 = performance.now();
  return { signed, prepare: t1 - t0, phone: t2 - t1, complete: t3 - t2, total: t3 - t0 };
}

function floor(bytes: Uint8Array): number {
  const t0 = performance.now();
  createHash('sha256').update(bytes).digest();
  return performance.now() - t0;
}

async function verify(bytes: Uint8Array, signatures: number): Promise<number> {
  const t0 = performance.now();
  const report = await verifyPdf(bytes, { caCertificate: ca.certificateDer, isKnownDigest: () => false });
  const elapsed = performance.now() - t0;
  if (report.verdict.status !== 'authentic' || report.signatures.length !== signatures) {
    throw new Error(`Unexpected verdict: ${report.verdict.summary}`);
  }
  return elapsed;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
const ratio = (value: number, reference: number) => `${(value / reference).toFixed(1).padStart(6)}x`;

console.log(
  `bench:documents: ${rounds} rounds per size, alternating with SHA-256 of the same bytes (the floor); medians`,
);
for (const megabytes of sizes) {
  const pdf = await createLargeSamplePdf(megabytes * 1024 * 1024);
  const once = (await sign(pdf)).signed;
  const twice = (await sign(once)).signed;
  const samples = {
    floor: [] as number[],
    prepare: [] as number[],
    phone: [] as number[],
    complete: [] as number[],
    sign: [] as number[],
    verify1: [] as number[],
    verify2: [] as number[],
  };
  // One warm-up round, not counted.
  for (let round = -1; round < rounds; round++) {
    const hashed = floor(pdf);
    const signing = await sign(pdf);
    const hashedAgain = floor(once);
    const verifiedOnce = await verify(once, 1);
    const hashedTwice = floor(twice);
    const verifiedTwice = await verify(twice, 2);
    if (round < 0) continue;
    samples.floor.push(hashed, hashedAgain, hashedTwice);
    samples.prepare.push(signing.prepare);
    samples.phone.push(signing.phone);
    samples.complete.push(signing.complete);
    samples.sign.push(signing.total);
    samples.verify1.push(verifiedOnce);
    samples.verify2.push(verifiedTwice);
  }
  const base = median(samples.floor);
  console.log(`\n${(pdf.length / 1024 / 1024).toFixed(1)} MB PDF (${megabytes} MB asked)`);
  console.log(`  sha-256 (floor)     ${ms(base)}`);
  console.log(
    `  sign                ${ms(median(samples.sign))}  ${ratio(median(samples.sign), base)}` +
      `   (prepare ${median(samples.prepare).toFixed(1)}, phone ${median(samples.phone).toFixed(1)}, ` +
      `complete ${median(samples.complete).toFixed(1)})`,
  );
  console.log(
    `  verify, 1 signature ${ms(median(samples.verify1))}  ${ratio(median(samples.verify1), base)}`,
  );
  console.log(
    `  verify, 2 signatures${ms(median(samples.verify2))}  ${ratio(median(samples.verify2), base)}`,
  );
  // The aims are for 10 MB; other sizes are reported beside them without one.
  const aimed = megabytes === 10;
  for (const [what, figure, limit] of [
    ['sign', median(samples.sign), 300],
    ['verify', median(samples.verify1), 150],
  ] as const) {
    emitRow({
      bench: 'documents',
      path: `${what} ${megabytes} MB PDF`,
      figure,
      unit: 'ms',
      reference: base,
      referenceName: 'SHA-256 of the bytes',
      ratio: figure / base,
      aim: aimed ? `< ${limit} ms` : '—',
      met: aimed ? figure < limit : null,
      note: `median of ${rounds}`,
    });
  }
}
