// A signing's stored failure reaches a Thai reader in Thai, and everyone else as it was stored.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serviceTexts } from '@/lib/errors.js';
import { completionReasons, signingFailureText } from './signing-failure-texts.js';

const thaiScript = /[\u0E00-\u0E7F]/;

describe('a stored signing failure', () => {
  it('is told in Thai to a Thai reader, and as stored to anyone else', () => {
    for (const text of [
      serviceTexts.phoneAnsweredWithoutSignature,
      serviceTexts.signingMaterialMissing,
      serviceTexts.preparedSignatureChanged,
      serviceTexts.signedMeanwhile,
    ]) {
      expect(signingFailureText(text.en, 'th')).toBe(text.th);
      expect(signingFailureText(text.en, 'en')).toBe(text.en);
      expect(signingFailureText(text.en, undefined)).toBe(text.en);
    }
    expect(
      signingFailureText('Someone else signed this document meanwhile: ask your phone again', 'th'),
    ).toBe('มีผู้อื่นลงนามเอกสารนี้ไปก่อนแล้ว โปรดขอลงนามบนโทรศัพท์อีกครั้ง');
  });

  it('tells the signing core’s reason in Thai where its words are known, else inside a Thai sentence', () => {
    const stored = serviceTexts.signatureNotCompleted(
      'The signature does not fit the space reserved for it',
    ).en;
    expect(stored).toBe(
      'The signature could not be completed: The signature does not fit the space reserved for it',
    );
    expect(signingFailureText(stored, 'th')).toBe(
      'ลงนามให้เสร็จสมบูรณ์ไม่ได้: ลายมือชื่อมีขนาดใหญ่เกินพื้นที่ที่เตรียมไว้ในเอกสาร',
    );
    expect(signingFailureText(stored, 'en')).toBe(stored);
    const unknown = serviceTexts.signatureNotCompleted('Something new').en;
    expect(signingFailureText(unknown, 'th')).toBe('ลงนามให้เสร็จสมบูรณ์ไม่ได้: Something new');
    expect(signingFailureText('A failure nobody translated', 'th')).toBe('A failure nobody translated');
  });

  it('knows reasons the signing core really gives, each with Thai', async () => {
    const core = fileURLToPath(new URL('../../../../../packages/pdf-signatures/src/', import.meta.url));
    const files = (await readdir(core)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    const source = (await Promise.all(files.map((name) => readFile(path.join(core, name), 'utf8')))).join(
      '\n',
    );
    for (const [reason, thai] of Object.entries(completionReasons)) {
      expect(source, reason).toContain(reason);
      expect(thai, reason).toMatch(thaiScript);
    }
  });
});
