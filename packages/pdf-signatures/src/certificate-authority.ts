// The platform's document-signing certificate authority: an ECDSA P-256 root that certifies the keys enrolled
// on users' authenticators, so that a PDF signature made on a phone names its signer in a standard X.509
// certificate. Stored as the certificate (public) and the private key encrypted under a passphrase (PKCS#8,
// PBES2: PBKDF2-HMAC-SHA256 with a high iteration count, AES-256-CBC; OpenSSL reads it too).
//
// Loaded, the private key lives only inside a non-extractable WebCrypto key held in a private field: nothing
// here returns, logs or serialises it.
import 'reflect-metadata';
import {
  createCipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  pbkdf2Sync,
  randomBytes,
  webcrypto,
  X509Certificate as NodeX509Certificate,
} from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { octetString, oid, sequence, tlv, TAG, unsignedInteger } from './der-encoding.js';
import { invalidInput } from './signing-error.js';

type CryptoKey = webcrypto.CryptoKey;

x509.cryptoProvider.set(webcrypto);

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256. Loading costs a few hundred milliseconds, once per start. */
export const DEFAULT_KDF_ITERATIONS = 600_000;
const MIN_KDF_ITERATIONS = 100_000;
const MIN_PASSPHRASE_LENGTH = 12;

const OID_UID = '0.9.2342.19200300.100.1.1';
const OID_EMAIL_PROTECTION = '1.3.6.1.5.5.7.3.4';
/** RFC 9336 id-kp-documentSigning. */
const OID_DOCUMENT_SIGNING = '1.3.6.1.5.5.7.3.36';

export const DEFAULT_CA_NAME = 'Careplane Document Signing CA';

/** What is kept in storage: both parts are safe to store; only the passphrase opens the key. */
export interface StoredCertificateAuthority {
  certificatePem: string;
  encryptedPrivateKeyPem: string;
}

/** An authenticator's enrolled key as a public JWK (the shape the authenticator protocol sends). */
export interface SignerPublicKey {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export interface SignerIdentity {
  firstName: string;
  lastName: string;
  /** `name@domain`: the identity's username, written as the certificate's UID. */
  username: string;
  /** Optional mail address, written as an rfc822Name subject alternative name. */
  email?: string;
}

export interface IssuedCertificate {
  pem: string;
  der: Uint8Array;
  /** Hexadecimal, as certificate viewers show it. */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** SHA-256 of the DER, hexadecimal: how a record of a signature can name the certificate. */
  fingerprint: string;
}

export class CertificateAuthorityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateAuthorityError';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Creating and storing

export async function createCertificateAuthority(options: {
  passphrase: string;
  commonName?: string;
  organization?: string;
  now?: Date;
  validityYears?: number;
  kdfIterations?: number;
}): Promise<StoredCertificateAuthority> {
  checkPassphrase(options.passphrase);
  const now = options.now ?? new Date();
  const keys = await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + (options.validityYears ?? 10));
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerialNumber(),
    name: [
      { '2.5.4.3': [options.commonName ?? DEFAULT_CA_NAME] },
      { '2.5.4.10': [options.organization ?? 'Careplane'] },
    ],
    notBefore: backdated(now),
    notAfter,
    keys,
    signingAlgorithm: ECDSA_SHA256,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  try {
    return {
      certificatePem: certificate.toString('pem'),
      encryptedPrivateKeyPem: encryptPkcs8(
        pkcs8,
        options.passphrase,
        options.kdfIterations ?? DEFAULT_KDF_ITERATIONS,
      ),
    };
  } finally {
    pkcs8.fill(0);
  }
}

/** The CA certificate (PEM) from storage, without the passphrase: what a server publishes for verifiers. */
export function certificateAuthorityPem(stored: StoredCertificateAuthority): string {
  const certificate = new NodeX509Certificate(stored.certificatePem);
  if (!certificate.ca) throw new CertificateAuthorityError('The stored certificate is not a CA certificate');
  return certificate.toString();
}

export async function loadCertificateAuthority(
  stored: StoredCertificateAuthority,
  passphrase: string,
): Promise<CertificateAuthority> {
  let pkcs8: Buffer;
  try {
    pkcs8 = createPrivateKey({ key: stored.encryptedPrivateKeyPem, format: 'pem', passphrase }).export({
      type: 'pkcs8',
      format: 'der',
    });
  } catch {
    throw new CertificateAuthorityError(
      'Cannot open the document-signing CA key: the passphrase is wrong or the stored key is damaged',
    );
  }
  try {
    const certificate = new x509.X509Certificate(stored.certificatePem);
    const signingKey = await webcrypto.subtle.importKey('pkcs8', pkcs8, EC_P256, false, ['sign']);
    // The key must be the one the certificate names, or every certificate issued would fail to chain.
    const publicFromKey = createPublicKey(
      createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
    ).export({ type: 'spki', format: 'der' });
    if (Buffer.compare(publicFromKey, Buffer.from(certificate.publicKey.rawData)) !== 0) {
      throw new CertificateAuthorityError('The stored CA key does not belong to the stored CA certificate');
    }
    return new CertificateAuthority(certificate, signingKey);
  } finally {
    pkcs8.fill(0);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Using

export class CertificateAuthority {
  readonly #signingKey: CryptoKey;
  readonly #certificate: x509.X509Certificate;
  readonly certificatePem: string;
  readonly certificateDer: Uint8Array;

  constructor(certificate: x509.X509Certificate, signingKey: CryptoKey) {
    this.#certificate = certificate;
    this.#signingKey = signingKey;
    this.certificatePem = certificate.toString('pem');
    this.certificateDer = new Uint8Array(certificate.rawData);
  }

  get subject(): string {
    return this.#certificate.subject;
  }

  get notAfter(): Date {
    return this.#certificate.notAfter;
  }

  /**
   * A signing certificate for an authenticator's enrolled P-256 key: CN the identity's name, UID its username;
   * digitalSignature + nonRepudiation; emailProtection and documentSigning; valid `validityDays` (default two
   * years), never past the CA's own end.
   */
  async issueSignerCertificate(input: {
    publicJwk: SignerPublicKey;
    identity: SignerIdentity;
    now?: Date;
    validityDays?: number;
  }): Promise<IssuedCertificate> {
    const publicKey = await importSignerKey(input.publicJwk);
    const { identity } = input;
    const commonName = `${identity.firstName} ${identity.lastName}`.trim();
    if (!commonName || commonName.length > 64)
      throw invalidInput('The signer needs a name of 1 to 64 characters');
    if (!identity.username || identity.username.length > 256)
      throw invalidInput('The signer needs a username');
    const now = input.now ?? new Date();
    const notAfter = new Date(now.getTime() + (input.validityDays ?? 730) * 86_400_000);
    if (notAfter > this.#certificate.notAfter) notAfter.setTime(this.#certificate.notAfter.getTime());
    const caKeyId = this.#certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
    if (!caKeyId) throw new CertificateAuthorityError('The CA certificate has no subject key identifier');
    const extensions: x509.Extension[] = [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([OID_EMAIL_PROTECTION, OID_DOCUMENT_SIGNING], false),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
      new x509.AuthorityKeyIdentifierExtension(caKeyId),
    ];
    if (identity.email) {
      extensions.push(new x509.SubjectAlternativeNameExtension([{ type: 'email', value: identity.email }]));
    }
    const certificate = await x509.X509CertificateGenerator.create({
      serialNumber: randomSerialNumber(),
      // The issuer name is the CA certificate's own subject, byte for byte, so that chains match exactly.
      issuer: this.#certificate.subjectName,
      subject: [
        { '2.5.4.3': [commonName] },
        { [OID_UID]: [identity.username] },
        { '2.5.4.10': ['Careplane'] },
      ],
      notBefore: backdated(now),
      notAfter,
      publicKey,
      signingKey: this.#signingKey,
      signingAlgorithm: ECDSA_SHA256,
      extensions,
    });
    const der = new Uint8Array(certificate.rawData);
    return {
      pem: certificate.toString('pem'),
      der,
      serialNumber: certificate.serialNumber,
      notBefore: certificate.notBefore,
      notAfter: certificate.notAfter,
      fingerprint: createHash('sha256').update(der).digest('hex'),
    };
  }

  /** Only the public part, whatever serialises this object. */
  toJSON(): { certificatePem: string } {
    return { certificatePem: this.certificatePem };
  }
}

// ---------------------------------------------------------------------------------------------------------

function checkPassphrase(passphrase: string): void {
  if (typeof passphrase !== 'string' || passphrase.length < MIN_PASSPHRASE_LENGTH) {
    throw new CertificateAuthorityError(
      `The CA passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters`,
    );
  }
}

async function importSignerKey(jwk: SignerPublicKey): Promise<CryptoKey> {
  if (
    !jwk ||
    jwk.kty !== 'EC' ||
    jwk.crv !== 'P-256' ||
    typeof jwk.x !== 'string' ||
    typeof jwk.y !== 'string'
  ) {
    throw invalidInput('The signer key must be a P-256 public JWK');
  }
  try {
    return await webcrypto.subtle.importKey(
      'jwk',
      { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
      EC_P256,
      true,
      ['verify'],
    );
  } catch {
    throw invalidInput('The signer key is not a valid P-256 public key');
  }
}

/** 16 random bytes, positive (top bit clear) and never starting with a zero octet. */
function randomSerialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString('hex');
}

/** A few minutes back, so that a verifier whose clock runs a little behind accepts a fresh certificate. */
function backdated(now: Date): Date {
  return new Date(now.getTime() - 5 * 60_000);
}

/**
 * PKCS#8 EncryptedPrivateKeyInfo with PBES2 (RFC 8018): PBKDF2-HMAC-SHA256 (random 16-byte salt) deriving an
 * AES-256-CBC key (random IV). Node (OpenSSL) decrypts it with `createPrivateKey({ passphrase })`.
 */
function encryptPkcs8(pkcs8: Uint8Array, passphrase: string, iterations: number): string {
  if (!Number.isSafeInteger(iterations) || iterations < MIN_KDF_ITERATIONS) {
    throw new CertificateAuthorityError(`The key derivation needs at least ${MIN_KDF_ITERATIONS} iterations`);
  }
  const salt = randomBytes(16);
  const iv = randomBytes(16);
  const key = pbkdf2Sync(passphrase, salt, iterations, 32, 'sha256');
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const encrypted = Buffer.concat([cipher.update(pkcs8), cipher.final()]);
  key.fill(0);
  const iterationBytes = Buffer.alloc(4);
  iterationBytes.writeUInt32BE(iterations);
  const der = sequence(
    sequence(
      oid('1.2.840.113549.1.5.13'), // PBES2
      sequence(
        sequence(
          oid('1.2.840.113549.1.5.12'), // PBKDF2
          sequence(
            octetString(salt),
            unsignedInteger(iterationBytes),
            unsignedInteger(Uint8Array.of(32)),
            sequence(oid('1.2.840.113549.2.9'), tlv(TAG.null)), // hmacWithSHA256
          ),
        ),
        sequence(oid('2.16.840.1.101.3.4.1.42'), octetString(iv)), // aes256-CBC
      ),
    ),
    octetString(encrypted),
  );
  const base64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${base64.trimEnd()}\n-----END ENCRYPTED PRIVATE KEY-----\n`;
}
