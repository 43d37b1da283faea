// Connection secrets of IoT devices: stored as scrypt hashes, checked in constant time.
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
const PARAMS = { N: 16_384, r: 8, p: 1 } as const;

function derive(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$<salt b64url>$<hash b64url>`: the parameters travel with the hash so they can grow. */
export async function hashConnectionSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

/** Whether `secret` matches a stored hash; a malformed hash never matches. */
export async function verifyConnectionSecret(secret: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every(Number.isSafeInteger) || N > 1_048_576 || r > 32 || p > 16) return false;
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length !== KEY_LENGTH) return false;
  const key = await derive(secret, Buffer.from(parts[4]!, 'base64url'), {
    N,
    r,
    p,
    maxmem: 128 * N * r * 2,
  });
  return timingSafeEqual(key, expected);
}

const VERIFIED_CACHE_SIZE = 10_000;

/**
 * `verifyConnectionSecret` with a memory of answers: scrypt takes tens of milliseconds by design, and a
 * device sends many messages with the same secret. The memory is keyed by a digest of the stored hash and
 * the secret (neither is kept), so a re-keyed device is checked afresh; it holds refusals too, so a device
 * repeating a wrong secret costs one scrypt, not one per message.
 */
export function createSecretVerifier(size = VERIFIED_CACHE_SIZE) {
  const known = new Map<string, boolean>();
  return async (secret: string, stored: string | null): Promise<boolean> => {
    if (!stored) return false;
    const key = createHash('sha256').update(stored).update('\u0000').update(secret).digest('base64url');
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const answer = await verifyConnectionSecret(secret, stored);
    if (known.size >= size) known.clear();
    known.set(key, answer);
    return answer;
  };
}
