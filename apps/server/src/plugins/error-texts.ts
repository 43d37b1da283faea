// The error body in the request's language. Refusals of a contract are sentences from the shared validation
// catalog (packages/shared/src/i18n/validation-texts.ts); the handler's own fixed messages have their Thai
// here. A service's own refusal (a 404 naming the record, a 409 naming a status) carries both languages itself
// (lib/service-texts.ts).
import type { Language } from '@careplane/shared/i18n/languages';
import { localizeIssue, validationTexts } from '@careplane/shared/i18n/validation-texts';
import type { ErrorIssue } from '@/lib/errors.js';

const thai: Record<string, string> = {
  'Invalid request': validationTexts.th.invalidRequest,
  'Invalid fields': validationTexts.th.invalidRequest,
  'Invalid prescription': 'ใบสั่งยาไม่ถูกต้อง: โปรดตรวจสอบข้อมูลที่ส่ง',
  'Invalid value': 'ค่าที่ส่งมาไม่ถูกต้อง',
  'Internal server error': 'เซิร์ฟเวอร์ขัดข้อง',
  'Concurrent change, try again': 'มีผู้อื่นแก้ไขพร้อมกัน โปรดลองอีกครั้ง',
  'The database is not available right now: try again shortly': 'ฐานข้อมูลยังไม่พร้อมใช้งาน โปรดลองอีกครั้งในอีกสักครู่',
  'The database took too long to answer: try again shortly': 'ฐานข้อมูลตอบช้าเกินไป โปรดลองอีกครั้งในอีกสักครู่',
  'The records this needs are busy with another change: try again shortly':
    'ข้อมูลที่ต้องใช้กำลังถูกแก้ไขอยู่ โปรดลองอีกครั้งในอีกสักครู่',
};

/** The Thai of a fixed message of the handler, else the message as it is. */
export const localizeMessage = (message: string, language: Language): string =>
  language === 'th' ? (thai[message] ?? message) : message;

const requestParts = new Set(['body', 'querystring', 'query', 'params', 'headers']);

/** The path inside the request part (`body.content.2.name` → `content`, 2, `name`). */
function pathOf(path: string): (string | number)[] {
  const segments = path.split('.').filter(Boolean);
  if (requestParts.has(segments[0] ?? '')) segments.shift();
  return segments.map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/**
 * Each issue's message in the language: one a zod issue made is rebuilt from its code and parameters; one a
 * service wrote is looked up among the authored messages by its English.
 */
export const localizeIssues = (issues: readonly ErrorIssue[], language: Language): ErrorIssue[] =>
  language === 'en'
    ? [...issues]
    : issues.map((issue) => ({
        path: issue.path,
        message: issue.value
          ? issue.message
          : localizeIssue(
              { code: 'custom', path: pathOf(issue.path), ...issue.source, message: issue.message },
              language,
            ),
      }));
