// What the IoT test files share: the connection secret they set, and the check that no answer shows it.
import { expect } from 'vitest';

export const SECRET = 'very-secret-connection-key';

export const expectNoSecret = (body: string) => {
  expect(body).not.toContain('connectionSecret');
  expect(body).not.toContain(SECRET);
  expect(body).not.toContain('scrypt$');
};
