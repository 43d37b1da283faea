import { describe, expect, it } from 'vitest';
import { createBindingMessage, tokenExpiry } from './login-flow.ts';

const encode = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

describe('sign-in helpers', () => {
  it('makes short binding messages the auth server accepts', () => {
    const accepted = /^[\p{L}\p{N} .,:!?#+/_-]{1,40}$/u;
    const seen = new Set<string>();
    for (let index = 0; index < 50; index += 1) {
      const message = createBindingMessage();
      expect(message).toMatch(/^[A-HJ-NP-Z]{2} [2-9]{2}$/);
      expect(message).toMatch(accepted);
      seen.add(message);
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it("reads a token's expiry from its exp claim, and nothing from anything else", () => {
    expect(tokenExpiry(`h.${encode({ exp: 1_900_000_000, sub: 'a' })}.s`)).toBe(1_900_000_000);
    expect(tokenExpiry(`h.${encode({ sub: 'a' })}.s`)).toBeUndefined();
    expect(tokenExpiry('opaque-token')).toBeUndefined();
    expect(tokenExpiry('h.!!!.s')).toBeUndefined();
  });
});
