import { compactVerify, exportJWK, generateKeyPair, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { NodeSigningKey } from './signing-key.js';

const keyPair = async (alg: 'ES256' | 'ES384' = 'ES256') => {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'k1', alg, use: 'sig' };
  return jwk as unknown as Record<string, string>;
};

const without = (jwk: Record<string, string>, name: string) => {
  const copy = { ...jwk };
  delete copy[name];
  return copy;
};

/** A JWS as oidc-provider assembles one around an external key (helpers/jwt.js). */
const jws = async (key: NodeSigningKey, payload: object) => {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: key.alg, kid: key.kid })}.${encode(payload)}`;
  const signature = Buffer.from(await key.sign(Buffer.from(input))).toString('base64url');
  return `${input}.${signature}`;
};

describe('NodeSigningKey', () => {
  it('signs ES256 JWSs that jose verifies with the public key alone', async () => {
    const jwk = await keyPair();
    const key = new NodeSigningKey(jwk);
    const token = await jws(key, { sub: 'someone' });
    const verified = await compactVerify(token, await importJWK(without(jwk, 'd'), 'ES256'));
    expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual({ sub: 'someone' });
    // r and s, 32 bytes each, as RFC 7518 § 3.4 has them (a DER signature would be longer and fail above).
    expect(Buffer.from(token.split('.')[2]!, 'base64url')).toHaveLength(64);
  });

  it('a signature does not verify under another key', async () => {
    const token = await jws(new NodeSigningKey(await keyPair()), { sub: 'someone' });
    const other = without(await keyPair(), 'd');
    await expect(compactVerify(token, await importJWK(other, 'ES256'))).rejects.toThrow();
  });

  it('gives the provider its kid, its algorithm and only its public half', async () => {
    const jwk = await keyPair();
    const key = new NodeSigningKey(jwk);
    expect({ kid: key.kid, alg: key.alg }).toEqual({ kid: 'k1', alg: 'ES256' });
    expect(key.keyObject().type).toBe('public');
    expect(key.keyObject().export({ format: 'jwk' })).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: jwk.x,
      y: jwk.y,
    });
  });

  it('refuses a key it would sign wrongly with', async () => {
    expect(() => new NodeSigningKey(Object.assign(Object.create(null), { kid: 'k' }))).toThrow(/ES256/);
    await expect(keyPair('ES384').then((jwk) => new NodeSigningKey(jwk))).rejects.toThrow(
      /ES256 key on P-256/,
    );
    const withoutKid = without(await keyPair(), 'kid');
    expect(() => new NodeSigningKey(withoutKid)).toThrow(/with a kid/);
  });
});
