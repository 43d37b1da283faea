import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, listQuerySchema } from './http.ts';

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
    expect(listQuerySchema.parse({ from: '1700000000000', to: '1.5' })).toMatchObject({
      from: 1_700_000_000_000,
      to: 1.5,
    });
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
