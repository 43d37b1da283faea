import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, csvExportQuerySchema, listQuerySchema } from './http.ts';

describe('listQuerySchema', () => {
  it('defaults paging and turns single parameters into lists', () => {
    expect(listQuerySchema.parse({ filters: 'status~new' })).toEqual({
      filters: ['status~new'],
      filtersLike: [],
      sort: [],
      relations: [],
      limit: DEFAULT_PAGE_SIZE,
      offset: 0,
      count: true,
    });
  });

  it('counts every match unless count=false says not to', () => {
    expect(listQuerySchema.parse({ count: 'false' }).count).toBe(false);
    expect(listQuerySchema.parse({ count: 'true' }).count).toBe(true);
    expect(listQuerySchema.safeParse({ count: 'no' }).success).toBe(false);
  });

  it('reads from and to as numbers', () => {
    expect(listQuerySchema.parse({ from: '1.5', to: '1700000000000' })).toMatchObject({
      from: 1.5,
      to: 1_700_000_000_000,
    });
  });

  it('refuses a range that ends before it starts, as a period does; one moment is a range', () => {
    for (const schema of [listQuerySchema, csvExportQuerySchema]) {
      expect(schema.safeParse({ from: '10', to: '5' }).error?.issues).toMatchObject([
        { path: ['to'], message: 'Must be after from' },
      ]);
      expect(schema.safeParse({ from: '5', to: '5' }).success).toBe(true);
      expect(schema.safeParse({ from: '10' }).success).toBe(true);
    }
  });

  it('says how many values a repeated parameter takes', () => {
    for (const name of ['filters', 'filtersLike', 'sort', 'relations']) {
      const refused = listQuerySchema.safeParse({ [name]: Array.from({ length: 51 }, () => 'a~b') });
      expect(refused.error?.issues).toMatchObject([{ path: [name], message: 'At most 50 values' }]);
      expect(listQuerySchema.safeParse({ [name]: Array.from({ length: 50 }, () => 'a~b') }).success).toBe(
        true,
      );
    }
  });

  it.each([
    [{ from: '' }],
    [{ to: 'soon' }],
    [{ to: 'Infinity' }],
    [{ limit: '0' }],
    [{ limit: String(MAX_PAGE_SIZE + 1) }],
    [{ offset: '-1' }],
    [{ limit: '1e2' }],
    [{ limit: '0x10' }],
    [{ limit: ' 5' }],
    [{ limit: '5.0' }],
    [{ limit: '' }],
    [{ offset: '1e3' }],
    [{ filters: Array.from({ length: 51 }, () => 'a~b') }],
  ])('refuses %o', (query) => {
    expect(listQuerySchema.safeParse(query).success).toBe(false);
  });
});
