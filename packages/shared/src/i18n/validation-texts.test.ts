// Every refusal has its Thai: each text of the catalog, each field label and each authored message is
// written in Thai script (an English text copied over fails), and a refused value reads as a Thai sentence
// that names the field.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commandCenterCreateSchema } from '../command-centers/command-centers.contract.ts';
import { usernameSchema } from '../users/users.contract.ts';
import { listQuerySchema } from '../common/http.ts';
import { requiredText } from '../common/primitives.ts';
import '../common/validation-messages.ts';
import {
  authoredMessages,
  fieldLabels,
  fieldName,
  localizeIssue,
  validationTexts,
  type ValidationTexts,
} from './validation-texts.ts';

const THAI = /[\u0E00-\u0E7F]/;

/** What a text that is a function is called with; the rest take a field and a number. */
const samples: Record<string, unknown[]> = { item: [3], itemOf: [3, 'Content'], notAccepted: [['extra']] };

/** Every text of a catalog, functions called with sample values, by its key path. */
function textsOf(value: unknown, key = ''): [string, string][] {
  if (typeof value === 'string') return [[key, value]];
  if (typeof value === 'function') {
    return [[key, String((value as (...a: unknown[]) => unknown)(...(samples[key] ?? ['X', 2])))]];
  }
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    textsOf(v, key ? `${key}.${k}` : k),
  );
}

const thaiIn = (texts: ValidationTexts) => textsOf(texts).filter(([, text]) => !THAI.test(text));

describe('the validation catalog', () => {
  it('has a Thai text, in Thai script, for every English one', () => {
    const english = textsOf(validationTexts.en).map(([key]) => key);
    expect(textsOf(validationTexts.th).map(([key]) => key)).toEqual(english);
    expect(thaiIn(validationTexts.th)).toEqual([]);
  });

  it('fails on a Thai text that is missing or left in English', () => {
    const partial: Partial<ValidationTexts> = { ...validationTexts.th };
    delete partial.notEmpty;
    const copied = { ...validationTexts.th, notValid: validationTexts.en.notValid };
    expect(textsOf(partial).length).toBeLessThan(textsOf(validationTexts.en).length);
    expect(thaiIn(copied).map(([key]) => key)).toEqual(['notValid']);
  });

  it('labels every known field and authored message in Thai', () => {
    expect(Object.entries(fieldLabels).filter(([, label]) => !THAI.test(label.th))).toEqual([]);
    const untranslated = Object.entries(authoredMessages).filter(([, message]) => {
      const text = message.th('ช่องทดสอบ');
      return !text.includes('ช่องทดสอบ') || !THAI.test(text.replace('ช่องทดสอบ', ''));
    });
    expect(untranslated).toEqual([]);
  });
});

describe('a refusal in the reader’s language', () => {
  const schema = z.strictObject({
    lastName: z.string().max(120),
    firstName: z.string(),
    quantity: z.number().int().min(1),
    kind: z.enum(['pharmacy', 'courier']),
    recipientId: z.uuid({ message: 'Must be a uuid' }),
    content: z.array(z.object({ name: z.string() })),
  });
  const refused = (language: 'en' | 'th') =>
    (
      schema.safeParse({
        lastName: 'x'.repeat(121),
        quantity: 0,
        kind: 'bakery',
        recipientId: 'nobody',
        content: [{ name: 3 }],
        extra: 1,
      }).error?.issues ?? []
    ).map((issue) => localizeIssue(issue, language));

  it('is the error map’s English sentence, as parsed', () => {
    expect(refused('en')).toEqual([
      'Last name must be at most 120 characters.',
      'First name is required.',
      'Quantity must be at least 1.',
      'Kind must be one of: pharmacy, courier.',
      'Must be a uuid',
      'Name must be text.',
      'This field is not accepted: extra.',
    ]);
  });

  it('is Thai naming the field, for generated and authored messages alike', () => {
    expect(refused('th')).toEqual([
      'นามสกุล ต้องยาวไม่เกิน 120 ตัวอักษร',
      'ต้องระบุชื่อ',
      'จำนวน ต้องไม่น้อยกว่า 1',
      'ประเภท ต้องเป็นค่าใดค่าหนึ่งต่อไปนี้: ร้านยา (pharmacy), บริการจัดส่ง (courier)',
      'ผู้รับยา ต้องเป็นรหัสอ้างอิง (UUID)',
      'ชื่อ ต้องเป็นข้อความ',
      'ไม่รับช่องข้อมูลนี้: extra',
    ]);
  });

  it('says a value is missing when a cleared control sends nothing, not that it is misshapen', () => {
    const provider = z.strictObject({ type: z.enum(['pharmacy', 'courier', 'nurse']) });
    for (const empty of [null, '']) {
      const [issue] = provider.safeParse({ type: empty }).error?.issues ?? [];
      expect(issue && localizeIssue(issue, 'en')).toBe('Type is required.');
      expect(issue && localizeIssue(issue, 'th')).toBe('ต้องระบุประเภท');
    }
    // A wrong value still lists the ones taken, in Thai with their words.
    const [wrong] = provider.safeParse({ type: 'bakery' }).error?.issues ?? [];
    expect(wrong && localizeIssue(wrong, 'th')).toBe(
      'ประเภท ต้องเป็นค่าใดค่าหนึ่งต่อไปนี้: ร้านยา (pharmacy), บริการจัดส่ง (courier), บริการพยาบาล (nurse)',
    );
    const [noUsername] = usernameSchema.safeParse('  ').error?.issues ?? [];
    expect(usernameSchema.safeParse('').error?.issues).toHaveLength(1);
    expect(noUsername?.message).toBe('Required');
    expect(usernameSchema.safeParse('ada').error?.issues[0]?.message).toBe('Must look like name@domain');
  });

  it('says a list where one value goes must be one value, not that it must be text', () => {
    const [twice] = listQuerySchema.safeParse({ limit: ['1', '2'] }).error?.issues ?? [];
    expect(twice && localizeIssue(twice, 'en')).toBe('Limit must be one value, not a list.');
    expect(twice && localizeIssue(twice, 'th')).toBe('จำนวนสูงสุด ต้องเป็นค่าเดียว ไม่ใช่รายการ');
    // A list where a list goes is no repeat, and a number where text goes is still named for its kind.
    expect(listQuerySchema.safeParse({ sort: ['a:asc', 'b:desc'] }).success).toBe(true);
    const [number] = z.object({ note: z.string() }).safeParse({ note: 3 }).error?.issues ?? [];
    expect(number && localizeIssue(number, 'en')).toBe('Note must be text.');
  });

  it('names a field as the form labels it, keeping a schema’s own words', () => {
    const prescription = z.strictObject({
      recipient: z.uuid(),
      content: z.array(z.string()).min(1, { message: 'At least one item is required' }),
    });
    const [recipient, content] = prescription.safeParse({ content: [] }).error?.issues ?? [];
    expect(recipient?.message).toBe('Recipient is required.');
    expect(recipient && localizeIssue(recipient, 'en', 'Patient')).toBe('Patient is required.');
    expect(recipient && localizeIssue(recipient, 'th', 'ผู้ป่วย')).toBe('ต้องระบุผู้ป่วย');
    const [misshapen] = prescription.safeParse({ recipient: 'nobody', content: ['x'] }).error?.issues ?? [];
    expect(misshapen && localizeIssue(misshapen, 'en', 'Patient')).toBe(
      'Patient must be an identifier (UUID).',
    );
    // A bare "Required" a schema set names its value as the error map's sentence does, in English too.
    const [emptyTitle] = z.object({ title: requiredText() }).safeParse({ title: ' ' }).error?.issues ?? [];
    expect(emptyTitle?.message).toBe('Required');
    expect(emptyTitle && localizeIssue(emptyTitle, 'en')).toBe('Title is required.');
    expect(emptyTitle && localizeIssue(emptyTitle, 'en', 'Name')).toBe('Name is required.');
    // The schema's own sentence is not the error map's: kept in English, named by the label in Thai.
    expect(content && localizeIssue(content, 'en', 'Items')).toBe('At least one item is required');
    expect(content && localizeIssue(content, 'th', 'รายการยา')).toBe('รายการยา ต้องมีอย่างน้อยหนึ่งรายการ');
  });

  it('names list items and unknown fields', () => {
    expect(fieldName(['content', 2], 'th')).toBe('รายการที่ 3 ของรายการยา');
    expect(fieldName(['content', 2], 'en')).toBe('Item 3 of content');
    expect(fieldName(['matrixIdentity'], 'th')).toBe('Matrix identity');
    expect(fieldName([], 'th')).toBe('ค่านี้');
  });

  it("names an address's title with its address, not as the record's own title", () => {
    expect(fieldName(['address', 'title'], 'en')).toBe('Address title');
    expect(fieldName(['address', 'title'], 'th')).toBe('ชื่อที่อยู่');
    // The user's address is a list of one.
    expect(fieldName(['address', 0, 'title'], 'en')).toBe('Address title');
    expect(fieldName(['deliveryAddress', 'title'], 'en')).toBe('Delivery address title');
    // The command center's address, sent without its title.
    const checked = commandCenterCreateSchema.safeParse({
      title: 'North',
      address: { street: 'Rama IV Road', city: 'Bangkok', country: 'Thailand' },
    });
    const issue = checked.error?.issues.find((each) => each.path.join('.') === 'address.title');
    expect(issue?.message).toBe('Address title is required.');
    expect(issue && localizeIssue(issue, 'en')).toBe('Address title is required.');
    expect(issue && localizeIssue(issue, 'th')).toBe('ต้องระบุชื่อที่อยู่');
    // The record's own title, and an address's other parts, keep their own names.
    expect(fieldName(['title'], 'en')).toBe('Title');
    expect(fieldName(['address', 'city'], 'en')).toBe('City');
    expect(localizeIssue({ code: 'custom', path: ['x'], message: 'Something nobody translated' }, 'th')).toBe(
      'X ไม่ถูกต้อง: Something nobody translated',
    );
  });
});
