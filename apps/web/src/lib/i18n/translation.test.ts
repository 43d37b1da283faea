import { describe, expect, it } from 'vitest';
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
