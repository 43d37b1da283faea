// The platform's document-signing CA at run time: its passphrase from configuration (by default derived from
// the server's encryption key, decision 022), the CA itself created on the first start and kept in the
// database (one row; a second process that races the first keeps the winner's), and the certificates it
// issues for authenticator keys, stored and reused while valid. Neither the passphrase nor the key ever
// reaches an answer or a log.
import { readFileSync } from 'node:fs';
import {
  certificateAuthorityPem,
  createCertificateAuthority,
  loadCertificateAuthority,
  type CertificateAuthority,
  type SignerIdentity,
} from '@careplane/pdf-signatures';
import type { PublicJwk } from '@careplane/shared/authenticator/protocol';
import type { CaPassphraseSource } from '@/config.js';
import type { Database } from '@/db/client.js';
import type { SecretBox } from '@/lib/secret-box.js';
import {
  findCertificateAuthority,
  findSignerCertificate,
  insertCertificateAuthority,
  insertSignerCertificate,
  type SignerCertificateRow,
} from './signing.repository.js';

const CA_ROW_ID = 'platform';
/** A certificate closer than this to its end is not handed out again: a new one is issued. */
const RENEW_BEFORE_MS = 24 * 60 * 60_000;

export class CaPassphraseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CaPassphraseError';
  }
}

export interface PassphraseOptions {
  source: CaPassphraseSource;
  /** The server's encryption key, which the passphrase derives from unless one is configured. */
  secrets: SecretBox;
}

/** The passphrase, from where the configuration says. */
export function resolveCaPassphrase({ source, secrets }: PassphraseOptions): string {
  switch (source.source) {
    case 'environment':
      return source.reveal();
    case 'file': {
      let text: string;
      try {
        text = readFileSync(source.path, 'utf8');
      } catch (error) {
        throw new CaPassphraseError(
          `DOCUMENTS_CA_PASSPHRASE_FILE: cannot read ${source.path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        );
      }
      const passphrase = text.replace(/\r?\n$/, '');
      if (passphrase.length < 12) {
        throw new CaPassphraseError(
          `DOCUMENTS_CA_PASSPHRASE_FILE: ${source.path} holds fewer than 12 characters`,
        );
      }
      return passphrase;
    }
    case 'encryption-key':
      return secrets.derive('documents-ca-passphrase');
  }
}

export interface SignerCertificate {
  fingerprint: string;
  serialNumber: string;
  der: Uint8Array;
}

export interface PlatformCa {
  authority: CertificateAuthority;
  /** The CA certificate, PEM: what GET /api/documents/ca.pem answers. */
  certificatePem: string;
  certificateDer: Uint8Array;
  /** The certificate of an authenticator key: the stored one while valid, else a new one. */
  certificateForKey(input: {
    keyId: string;
    identityId: string;
    publicJwk: PublicJwk;
    identity: SignerIdentity;
  }): Promise<SignerCertificate>;
  /** A stored certificate by its fingerprint. */
  certificate(fingerprint: string): Promise<SignerCertificate | undefined>;
}

/**
 * Opens the CA stored in the database, creating it on the first start. A wrong passphrase (or a damaged row)
 * throws: the server must not start without its CA.
 */
export async function openPlatformCa(db: Database, passphrase: string): Promise<PlatformCa> {
  let stored = await findCertificateAuthority(db, CA_ROW_ID);
  if (!stored) {
    // Two processes may both create one; the row inserted first is the CA, the other is thrown away.
    const created = await createCertificateAuthority({ passphrase });
    await insertCertificateAuthority(db, { id: CA_ROW_ID, ...created });
    stored = await findCertificateAuthority(db, CA_ROW_ID);
    if (!stored) throw new Error('The document-signing CA could not be stored');
  }
  const authority = await loadCertificateAuthority(stored, passphrase);
  const certificatePem = certificateAuthorityPem(stored);

  const toCertificate = (row: SignerCertificateRow): SignerCertificate => ({
    fingerprint: row.fingerprint,
    serialNumber: row.serialNumber,
    der: new Uint8Array(row.der),
  });

  return {
    authority,
    certificatePem,
    certificateDer: authority.certificateDer,
    async certificateForKey(input) {
      const now = new Date();
      const reusable = await findSignerCertificate(db, {
        keyId: input.keyId,
        identityId: input.identityId,
        validUntilAtLeast: new Date(now.getTime() + RENEW_BEFORE_MS),
      });
      if (reusable) return toCertificate(reusable);
      const issued = await authority.issueSignerCertificate({
        publicJwk: input.publicJwk,
        identity: input.identity,
        now,
      });
      const row: SignerCertificateRow = {
        fingerprint: issued.fingerprint,
        keyId: input.keyId,
        identityId: input.identityId,
        serialNumber: issued.serialNumber,
        der: issued.der,
        notBefore: issued.notBefore,
        notAfter: issued.notAfter,
      };
      await insertSignerCertificate(db, row);
      return toCertificate(row);
    },
    async certificate(fingerprint) {
      const row = await findSignerCertificate(db, { fingerprint });
      return row ? toCertificate(row) : undefined;
    },
  };
}
