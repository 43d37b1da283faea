// The token route's body handling: which bodies it reads, and the refresh scope it hands the provider.
import { describe, expect, it } from 'vitest';
import { readsBody, refreshWithoutOpenid } from './token-request.js';

const form = (text: string) => Buffer.from(text);
const scopeOf = (body: Buffer) => new URLSearchParams(body.toString()).getAll('scope');

describe('refreshWithoutOpenid', () => {
  it('takes openid out of a refresh scope, and the scope out when nothing else was asked', () => {
    const alone = refreshWithoutOpenid(form('grant_type=refresh_token&refresh_token=abc&scope=openid'));
    expect(scopeOf(alone)).toEqual([]);
    expect(new URLSearchParams(alone.toString()).get('refresh_token')).toBe('abc');
    const beside = refreshWithoutOpenid(
      form('grant_type=refresh_token&refresh_token=abc&scope=offline_access+openid%20profile'),
    );
    expect(scopeOf(beside)).toEqual(['offline_access profile']);
  });

  it('returns every other body as it came', () => {
    const bodies = [
      'grant_type=refresh_token&refresh_token=openid-looking&scope=profile',
      'grant_type=urn%3Aopenid%3Aparams%3Agrant-type%3Aciba&auth_req_id=x&scope=openid',
      'grant_type=refresh_token&refresh_token=abc',
      // A parameter twice is the provider's to refuse, untouched.
      'grant_type=refresh_token&refresh_token=abc&scope=openid&scope=openid',
      'grant_type=refresh_token&grant_type=refresh_token&refresh_token=abc&scope=openid',
    ].map(form);
    for (const body of bodies) expect(refreshWithoutOpenid(body)).toBe(body);
  });
});

describe('readsBody', () => {
  it('reads a form of known length up to the provider’s own limit, nothing else', () => {
    const type = 'application/x-www-form-urlencoded; charset=utf-8';
    expect(readsBody({ 'content-type': type, 'content-length': '120' })).toBe(true);
    expect(readsBody({ 'content-type': type, 'content-length': String(56 * 1024) })).toBe(true);
    expect(readsBody({ 'content-type': type, 'content-length': String(56 * 1024 + 1) })).toBe(false);
    expect(readsBody({ 'content-type': type })).toBe(false);
    expect(readsBody({ 'content-type': type, 'content-length': '0' })).toBe(false);
    expect(readsBody({ 'content-type': 'application/json', 'content-length': '120' })).toBe(false);
  });
});
