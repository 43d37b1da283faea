// Every message a contract or a service writes for a refused field has its Thai sentence: a new message
// without one fails here, before a Thai reader meets it in English.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { authoredMessages } from '@careplane/shared/i18n/validation-texts';
import { localizeIssues, localizeMessage } from './error-texts.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { recursive: true });
  return entries
    .filter((name) => name.endsWith('.ts') && !/\.(test|int\.test|fixtures)\.ts$/.test(name))
    .map((name) => path.join(root, dir, name));
}

/** The literal messages of schemas (`{ message: '…' }`, `{ error: '…' }`) and of issues (`{ path, message }`). */
async function literalMessages(files: string[], pattern: RegExp): Promise<Set<string>> {
  const found = new Set<string>();
  for (const file of files) {
    for (const match of (await readFile(file, 'utf8')).matchAll(pattern)) found.add(match[1]!);
  }
  return found;
}

describe('Thai for authored messages', () => {
  it('covers every literal message of the shared contracts and every issue a service writes', async () => {
    const contracts = await literalMessages(
      await sources('packages/shared/src'),
      /\b(?:message|error):\s*'([^']+)'/g,
    );
    const services = await literalMessages(
      await sources('apps/server/src'),
      /path: [`'][^`']*[`'],\s*message: '([^']+)'/g,
    );
    expect(contracts.size).toBeGreaterThan(15);
    expect(services.size).toBeGreaterThan(10);
    const missing = [...contracts, ...services].filter((message) => !authoredMessages[message]);
    expect(missing).toEqual([]);
  });

  it('names the field whether or not its path starts with the request part', () => {
    const issues = [
      { path: 'body.recipient', message: 'No user with this id' },
      { path: 'relations', message: 'relations are not supported here' },
      { path: 'body.watchers', message: 'No user with id a, b' },
    ];
    expect(localizeIssues(issues, 'th').map((issue) => issue.message)).toEqual([
      'ผู้รับยา: ไม่มีผู้ใช้ที่มีรหัสนี้',
      'ข้อมูลที่เกี่ยวข้อง: ใช้ relations ที่นี่ไม่ได้',
      'ผู้ติดตาม: ไม่มีผู้ใช้ที่มีรหัส a, b',
    ]);
    expect(localizeIssues(issues, 'en')).toEqual(issues);
    expect(localizeMessage('Invalid request', 'th')).toBe('คำขอไม่ถูกต้อง: โปรดตรวจสอบข้อมูลที่ส่ง');
    expect(localizeMessage('Document not found', 'th')).toBe('Document not found');
  });
});
