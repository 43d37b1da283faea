import { describe, expect, it } from 'vitest';
import { nameText, requiredText, text } from './primitives.ts';

const accepts = (schema: ReturnType<typeof text>, value: string) => schema.safeParse(value).success;

describe('text people type', () => {
  it('takes any script, emoji, tabs and line breaks, and the marks that set a direction for one letter', () => {
    for (const value of [
      'มาลี แก้วมณี',
      'Amoxicillin 500 mg',
      'Zoë 😀',
      'take with food\n\tmorning and evening\r\n',
      'עברית\u200F 12',
    ]) {
      expect(accepts(text(), value), JSON.stringify(value)).toBe(true);
      expect(accepts(requiredText(), value), JSON.stringify(value)).toBe(true);
    }
  });

  it('refuses control characters and the characters that override a direction of writing', () => {
    for (const value of [
      'a\u0001b',
      'a\u001Bb',
      'a\u007Fb',
      'a\u0085b',
      'Warfarin\u202E gm 0005',
      'a\u2066b\u2069',
    ]) {
      const answer = text().safeParse(value);
      expect(answer.success, JSON.stringify(value)).toBe(false);
      expect(answer.error?.issues[0]?.message).toBe('Must not contain control or text-direction characters');
      expect(accepts(requiredText(), value), JSON.stringify(value)).toBe(false);
    }
  });

  it('reads text with nothing visible in it as missing where it is required', () => {
    for (const value of ['\u200B', ' \uFEFF ', '\u200C\u200D', '\u2060']) {
      const answer = requiredText().safeParse(value);
      expect(answer.success, JSON.stringify(value)).toBe(false);
      expect(answer.error?.issues[0]?.message).toBe('Required');
    }
    // A zero-width character between letters is part of how some scripts are typed.
    expect(accepts(requiredText(), 'a\u200Bb')).toBe(true);
  });

  it('keeps a name without the blanks around it, so blanks alone are no name', () => {
    expect(nameText().parse('  มาลี ')).toBe('มาลี');
    expect(nameText().parse('   ')).toBe('');
    expect(nameText().parse('\t\n')).toBe('');
    expect(nameText(5).safeParse(' abcdef ').success).toBe(false);
    expect(nameText().safeParse('Warfarin\u202E').success).toBe(false);
  });
});
