import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { MAX_EMBEDDED } from './graph.js';
import { parseRelations, queryShape, shapeRow } from './relations.js';

describe('parseRelations', () => {
  it('builds a tree from comma lists and repeated parameters', () => {
    expect(parseRelations('users', ['patientProfile,commandCenters', 'employers.employees'])).toEqual({
      patientProfile: {},
      commandCenters: {},
      employers: { employees: {} },
    });
  });

  it.each([['password'], ['patientProfile.nope'], ['__proto__'], ['constructor']])(
    'refuses the unknown relation %s with a 400',
    (relation) => {
      expect(() => parseRelations('users', [relation])).toThrowError(AppError);
      try {
        parseRelations('users', [relation]);
      } catch (error) {
        expect((error as AppError).statusCode).toBe(400);
      }
    },
  );

  it('refuses paths deeper than three levels', () => {
    expect(() =>
      parseRelations('users', ['createdByUser.createdByUser.createdByUser.createdByUser']),
    ).toThrowError(/too deep/);
  });
});

describe('queryShape', () => {
  it('leaves secret columns out at every level', () => {
    const shape = queryShape('users', { assignedIotDevices: {} });
    expect(shape.with?.assignedIotDevices?.columns).toEqual({ connectionSecret: false });
    expect(queryShape('devices', {}).columns).toEqual({ tokenHash: false });
  });

  it('unwraps link tables and bounds every embedded list', () => {
    const shape = queryShape('users', { employers: {} });
    expect(shape.with?.employerLinks).toMatchObject({ with: { serviceProvider: {} }, limit: MAX_EMBEDDED });
    expect(queryShape('devices', { stats: {} }).with?.stats?.limit).toBe(5);
  });
});

describe('shapeRow', () => {
  it('renames relations, unwraps links and turns dates into ISO strings', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    const row = {
      id: 'u1',
      createdAt: at,
      employerLinks: [
        { userId: 'u1', serviceProviderId: 's1', serviceProvider: { id: 's1', createdAt: at } },
      ],
      patientProfile: null,
    };
    expect(shapeRow('users', row, { employers: {}, patientProfile: {} })).toEqual({
      id: 'u1',
      createdAt: '2026-01-02T03:04:05.000Z',
      employers: [{ id: 's1', createdAt: '2026-01-02T03:04:05.000Z' }],
      patientProfile: null,
    });
  });
});
