import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_PURPOSE } from '@careplane/shared/common/enums';
import {
  CARE_TEAM_ALERT_PURPOSE,
  CARE_TEAM_REBOOT_PURPOSE,
  serverJobPurposes,
} from '@careplane/shared/devices/job-purposes';
import en from './en.ts';
import { jobPurposeText } from './job-purpose.ts';
import { changeLanguage } from './language.ts';

afterEach(() => changeLanguage('en'));

describe("a job's purpose", () => {
  it('is in English as the server stores it, whichever the server wrote', () => {
    for (const [purpose, name] of Object.entries(serverJobPurposes)) {
      expect(en.jobPurpose[name]).toBe(purpose);
      expect(jobPurposeText(purpose)).toBe(purpose);
    }
  });

  it("is in the reader's Thai when the server wrote it, and as written when a person did", async () => {
    await changeLanguage('th');
    // The specification's default stays in its words, as every text it quotes.
    expect(jobPurposeText(DEFAULT_JOB_PURPOSE)).toBe(DEFAULT_JOB_PURPOSE);
    expect(jobPurposeText(CARE_TEAM_ALERT_PURPOSE)).toBe('ทีมดูแลส่งการแจ้งเตือนถึงผู้ใช้');
    expect(jobPurposeText(CARE_TEAM_REBOOT_PURPOSE)).toBe('ทีมดูแลขอให้รีสตาร์ตอุปกรณ์ของผู้ใช้');
    expect(jobPurposeText('Measurement reminder')).toBe('Measurement reminder');
    // A purpose that happens to name an object's own property is a person's words too.
    expect(jobPurposeText('constructor')).toBe('constructor');
  });
});
