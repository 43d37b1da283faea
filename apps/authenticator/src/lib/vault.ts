// The identities enrolled on this phone, in IndexedDB. The private key is a non-extractable WebCrypto key:
// IndexedDB keeps the key object itself, and no script (ours included) can read its bytes.
import type { AuthenticatorKey } from '@careplane/shared/authenticator/protocol';

export interface StoredIdentity {
  /** The key's thumbprint, as the auth server knows it. */
  keyId: string;
  /** The auth server where the key is enrolled. */
  issuer: string;
  username: string;
  firstName: string;
  lastName: string;
  privateKey: CryptoKey;
  enrolledAt: string;
}

const DB_NAME = 'careplane-authenticator';
const STORE = 'identities';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE))
        request.result.createObjectStore(STORE, { keyPath: 'keyId' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('The phone storage cannot be opened'));
  });
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error ?? new Error('The phone storage failed'));
      transaction.onabort = () => reject(transaction.error ?? new Error('The phone storage failed'));
    });
  } finally {
    db.close();
  }
}

export const vault = {
  async list(): Promise<StoredIdentity[]> {
    const all = await run('readonly', (store) => store.getAll() as IDBRequest<StoredIdentity[]>);
    return all.sort((a, b) => a.enrolledAt.localeCompare(b.enrolledAt));
  },
  async put(identity: StoredIdentity): Promise<void> {
    await run('readwrite', (store) => store.put(identity));
  },
  async remove(keyId: string): Promise<void> {
    await run('readwrite', (store) => store.delete(keyId));
  },
};

export const keyOf = (identity: StoredIdentity): AuthenticatorKey => ({
  keyId: identity.keyId,
  privateKey: identity.privateKey,
});

export const displayName = (identity: Pick<StoredIdentity, 'firstName' | 'lastName'>) =>
  `${identity.firstName} ${identity.lastName}`.trim();
