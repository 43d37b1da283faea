import { describe, expect, it } from 'vitest';
import { fieldLabels } from '@careplane/shared/i18n/validation-texts';
import { addressParts } from '@/lib/resource-kit/form/form-model.ts';
import th from './th.ts';
import { inSentence } from './translation.ts';

describe('inSentence', () => {
  it('lowers the first letter of a title read inside a sentence', () => {
    expect(inSentence('Service providers')).toBe('service providers');
    expect(inSentence('Users')).toBe('users');
    expect(inSentence('Service Providers')).toBe('service providers');
  });
  it('keeps a word written with capitals inside it', () => {
    expect(inSentence('IOT Devices')).toBe('IOT devices');
    expect(inSentence('IoT devices')).toBe('IoT devices');
  });
  it('leaves scripts without case, and the capitals after them, as they are', () => {
    expect(inSentence('อุปกรณ์ IoT')).toBe('อุปกรณ์ IoT');
    expect(inSentence('')).toBe('');
  });
});

describe('the Thai words of an address', () => {
  it('are the same in a form field and in the messages that name it', () => {
    // The address's own title is named apart, with the address (validation-texts.ts).
    for (const part of addressParts.filter((part) => part !== 'title'))
      expect(fieldLabels[part]?.th, part).toBe(th.address[part]);
  });
});
