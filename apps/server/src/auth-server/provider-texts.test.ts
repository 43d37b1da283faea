// The sign-in server's OAuth refusals have Thai descriptions, the English stays oidc-provider's own words, and
// the descriptions known here are ones oidc-provider really writes (a wording it changes fails here, not in front
// of a Thai reader).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { serviceTexts } from '@/lib/errors.js';
import { providerErrorDescription, providerTexts } from './provider-texts.js';

const thaiScript = /[\u0E00-\u0E7F]/;

/** oidc-provider's library source, quotes unescaped. */
async function providerSource(): Promise<string> {
  const lib = path.join(path.dirname(createRequire(import.meta.url).resolve('oidc-provider')), '..');
  const files = (await readdir(lib, { recursive: true })).filter((name) => name.endsWith('.js'));
  const texts = await Promise.all(files.map((name) => readFile(path.join(lib, name), 'utf8')));
  return texts.join('\n').replaceAll("\\'", "'");
}

describe('the sign-in server’s refusal descriptions', () => {
  it('are oidc-provider’s own words or this server’s, each with Thai', async () => {
    const source = await providerSource();
    const own = new Set<string>(
      [
        serviceTexts.signInsTooMany,
        serviceTexts.loginHintTokenUnsupported,
        serviceTexts.bindingMessageInvalid,
        serviceTexts.signInDenied,
      ].map((text) => text.en),
    );
    for (const [english, thai] of Object.entries(providerTexts.descriptions)) {
      if (!own.has(english)) expect(source, english).toContain(english);
      expect(thai, english).toMatch(thaiScript);
    }
    // too_many_requests is this server's own (provider.ts's per-identifier limit).
    for (const [code, thai] of Object.entries(providerTexts.codes)) {
      if (code !== 'too_many_requests') expect(source, code).toContain(`'${code}'`);
      expect(thai, code).toMatch(thaiScript);
    }
  });

  it('stay as written in English', () => {
    for (const english of Object.keys(providerTexts.descriptions)) {
      expect(providerErrorDescription('invalid_request', english, 'en')).toBe(english);
    }
  });

  it('are told in Thai, with the values a description carries', () => {
    const thai = (error: string, description: string) => providerErrorDescription(error, description, 'th');
    expect(thai('slow_down', 'you are polling too quickly and should back off at a reasonable rate')).toBe(
      'ถามสถานะถี่เกินไป โปรดเว้นระยะให้นานขึ้น',
    );
    expect(thai('invalid_request', "missing required parameter 'auth_req_id'")).toBe(
      "ต้องระบุพารามิเตอร์ 'auth_req_id'",
    );
    expect(thai('invalid_request', "'login_hint' parameter must not be provided twice")).toBe(
      "ส่งพารามิเตอร์ 'login_hint' ซ้ำไม่ได้",
    );
    expect(
      thai(
        'invalid_request',
        'only application/x-www-form-urlencoded content-type bodies are supported on POST /backchannel',
      ),
    ).toBe('POST /backchannel รับข้อมูลแบบ application/x-www-form-urlencoded เท่านั้น');
    expect(thai('too_many_requests', serviceTexts.signInsTooMany.en)).toBe(serviceTexts.signInsTooMany.th);
    // Not translated yet: said after what kind of refusal it is; an unknown kind stays as written.
    expect(thai('invalid_request', 'something new')).toBe('คำขอไม่ถูกต้อง: something new');
    expect(thai('brand_new_error', 'something new')).toBe('something new');
  });
});
