import { describe, expect, it } from 'vitest';
import { keyWords } from './key-words.ts';

describe('keyWords', () => {
  it.each([
    ['lastName', 'Last name'],
    ['firmwareVersion2X', 'Firmware version2 x'],
    ['firmware_version', 'Firmware version'],
    ['serial-no', 'Serial no'],
    ['  mac__address ', 'Mac address'],
    ['ip', 'Ip'],
  ])('%s reads as %s', (key, words) => {
    expect(keyWords(key)).toBe(words);
  });

  it('leaves nothing for an empty key', () => {
    expect(keyWords('')).toBe('');
    expect(keyWords('__')).toBe('');
  });
});
