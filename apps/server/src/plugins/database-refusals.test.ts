// A refusal the database makes because of what the client sent (a duplicate, a missing reference or value)
// reaches a person in their language, naming the constraint or column as the English does.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsPlugin } from './errors.js';

/** What node-postgres and PGlite throw: an Error with the SQLSTATE and what it names. */
const pgError = (fields: Record<string, string>) => Object.assign(new Error('database refusal'), fields);
const refusals: Record<string, Error> = {
  duplicate: pgError({ code: '23505', constraint: 'auth_identities_username_unique' }),
  taken: pgError({ code: '23505', constraint: 'users_username_unique' }),
  reference: pgError({ code: '23503', detail: 'Key (patient_profile_id)=(42) is not present in table "x".' }),
  required: pgError({ code: '23502', column: 'first_name' }),
  invalid: pgError({ code: '22P02' }),
};

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  await app.register(errorsPlugin, {});
  app.get<{ Params: { kind: string } }>('/refuse/:kind', async (request) => {
    throw new Error('the service failed', { cause: refusals[request.params.kind] });
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
});

const refuse = async (kind: string, language: string) => {
  const response = await app.inject({ url: `/refuse/${kind}`, headers: { 'accept-language': language } });
  const { message, issues } = response.json<{ message: string; issues?: unknown }>();
  return { status: response.statusCode, message, ...(issues ? { issues } : {}) };
};

describe('database refusals', () => {
  it('keep their English words', async () => {
    expect(await refuse('duplicate', 'en')).toEqual({
      status: 409,
      message: 'A record with this value already exists (auth_identities_username_unique)',
    });
    expect(await refuse('reference', 'en')).toEqual({
      status: 400,
      message: 'A referenced record does not exist (patient_profile_id)',
    });
    expect(await refuse('required', 'en')).toEqual({
      status: 400,
      message: 'Missing required value for first_name',
    });
    expect(await refuse('invalid', 'en')).toEqual({ status: 400, message: 'Invalid value' });
  });

  it('are Thai sentences naming the same constraint or column for a Thai reader', async () => {
    expect(await refuse('duplicate', 'th')).toEqual({
      status: 409,
      message: 'มีข้อมูลที่ใช้ค่านี้อยู่แล้ว (auth_identities_username_unique)',
    });
    expect(await refuse('reference', 'th')).toEqual({
      status: 400,
      message: 'ไม่พบข้อมูลที่อ้างถึง (patient_profile_id)',
    });
    expect(await refuse('required', 'th')).toEqual({ status: 400, message: 'ขาดค่าที่จำเป็น: first_name' });
    expect(await refuse('invalid', 'th')).toEqual({ status: 400, message: 'ค่าที่ส่งมาไม่ถูกต้อง' });
  });

  it('name the field a client chose when its value is taken, in words and on the field, in either language', async () => {
    expect(await refuse('taken', 'en')).toEqual({
      status: 409,
      message: 'Another user already has this username',
      issues: [{ path: 'body.username', message: 'Another user already has this username' }],
    });
    expect(await refuse('taken', 'th')).toEqual({
      status: 409,
      message: 'มีผู้ใช้อื่นใช้ชื่อผู้ใช้นี้อยู่แล้ว',
      issues: [{ path: 'body.username', message: 'มีผู้ใช้อื่นใช้ชื่อผู้ใช้นี้อยู่แล้ว' }],
    });
  });
});
