// What every part of the documents service shares: its dependencies, who the caller is as a user, which
// documents they may see (anyone else gets 404), and the signature entries a document records.
import { createHash } from 'node:crypto';
import type { SignatureEntry } from '@careplane/shared/documents/documents.contract';
import type { Caller } from '@/lib/caller.js';
import { forbidden, notFound, serviceTexts, unauthorized } from '@/lib/errors.js';
import type { Store } from '@/lib/store.js';
import { findDocument, visibleTo, type UserName } from './documents.repository.js';
import type { PlatformCa } from './platform-ca.js';
import type { SigningGateway } from './signing-gateway.js';

/** Audit and change-feed name of the resource. */
export const RESOURCE = 'documents';

export interface DocumentsServiceOptions {
  store: Store;
  ca: PlatformCa;
  gateway: SigningGateway;
}

/** A caller who has a user record. */
export type DocumentUser = Caller & { userId: string };

/** The caller's user id: documents belong to application users (created at the first sign-in). */
export function userOf(caller: Caller | null): DocumentUser {
  if (!caller) throw unauthorized();
  if (!caller.userId) {
    throw forbidden(serviceTexts.noUserRecordYet);
  }
  return { ...caller, userId: caller.userId };
}

/** What the caller may see: admins everything, others their own and what they are asked to sign. */
export const visibility = (caller: DocumentUser) => (caller.isAdmin ? undefined : visibleTo(caller.userId));

/** The document if the caller may see it; otherwise 404, as if it did not exist. */
export async function visibleDocument(store: Store, id: string, caller: DocumentUser) {
  const found = await findDocument(store.db, id, visibility(caller));
  if (!found) throw notFound('Document');
  return found;
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export const displayName = (user: Pick<UserName, 'firstName' | 'lastName' | 'usernameWithoutDomain'>) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ') || user.usernameWithoutDomain;

export const optionalText = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** A stored signature entry in the contract's shape (entries written before this API have fewer fields). */
export function normalizeEntry(raw: Record<string, unknown>): SignatureEntry {
  const entry: SignatureEntry = {
    userId: typeof raw.userId === 'string' ? raw.userId : null,
    name: optionalText(raw.name) ?? 'Unknown signer',
    signedAt: optionalText(raw.signedAt) ?? new Date(0).toISOString(),
  };
  for (const key of [
    'username',
    'role',
    'method',
    'keyId',
    'certificateSerial',
    'certificateSha256',
    'revisionSha256',
  ] as const) {
    const value = optionalText(raw[key]);
    if (value) entry[key] = value;
  }
  return entry;
}

/** Signed at least once, and no party asked to sign is still pending. */
export const isFullySigned = (metadata: readonly SignatureEntry[], partyIds: readonly string[]) => {
  const signers = new Set(metadata.map((entry) => entry.userId));
  return metadata.length > 0 && partyIds.every((id) => signers.has(id));
};
