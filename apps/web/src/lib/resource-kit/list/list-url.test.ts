import { describe, expect, it } from 'vitest';
import { alertListSpec } from '@careplane/shared/alerts/alerts.contract';
import { userListSpec } from '@careplane/shared/users/users.contract';
import {
  activeFilterCount,
  emptyListState,
  parseListUrl,
  serializeListState,
  toExportRequest,
  toListRequest,
  withFilter,
  withPage,
  withPageSize,
  withSearch,
  withSort,
} from './list-url.ts';

const centerId = '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f90';

describe('the list URL codec', () => {
  it('reads filters, search, sort, page and page size from a copied link', () => {
    const params = new URLSearchParams(
      `filters=localRoles~nurse,doctor&filters=commandCenters.id~${centerId}&filters=isBlocked~false` +
        '&filtersLike=name~ada&sort=lastName:asc&page=3&pageSize=50',
    );
    expect(parseListUrl(params, userListSpec)).toEqual({
      filters: { localRoles: 'nurse,doctor', 'commandCenters.id': centerId, isBlocked: 'false' },
      search: { name: 'ada' },
      sort: { path: 'lastName', direction: 'asc' },
      page: 3,
      pageSize: 50,
      from: null,
      to: null,
    });
  });

  it('writes the same view back, leaving defaults out, so the round trip is exact', () => {
    const state = withPage(
      withSort(withSearch(withFilter(emptyListState(), 'localRoles', 'patient'), 'name', 'Lee'), {
        path: 'username',
        direction: 'desc',
      }),
      2,
    );
    const query = serializeListState(state, userListSpec);
    expect(query.toString()).toBe(
      'filters=localRoles%7Epatient&filtersLike=name%7ELee&sort=username%3Adesc&page=2',
    );
    expect(parseListUrl(query, userListSpec)).toEqual(state);
    expect(serializeListState(emptyListState(), userListSpec).toString()).toBe('');
  });

  it('drops what the spec does not allow instead of sending a refused request', () => {
    const params = new URLSearchParams(
      'filters=password~x&filters=id~not-a-uuid&filters=localRoles~wizard&filters=isBlocked~maybe' +
        '&filtersLike=secret~x&sort=password:asc&page=-2&pageSize=33&from=1&to=2',
    );
    expect(parseListUrl(params, userListSpec)).toEqual(emptyListState());
  });

  it('accepts null for a reference ("has none") and a time range where the list has one', () => {
    const params = new URLSearchParams('filters=user.id~null&from=1700000000000&to=1700000360000');
    expect(parseListUrl(params, alertListSpec)).toMatchObject({
      filters: { 'user.id': 'null' },
      from: 1_700_000_000_000,
      to: 1_700_000_360_000,
    });
  });

  it('turns a view into the API request, with fixed filters, relations, limit and offset', () => {
    const state = withPage(withPageSize(withFilter(emptyListState(), 'isBlocked', 'true'), 50), 3);
    expect(
      toListRequest(state, userListSpec, {
        relations: ['patientProfile', 'commandCenters'],
        fixedFilters: ['localRoles~patient'],
      }),
    ).toEqual({
      filters: ['localRoles~patient', 'isBlocked~true'],
      filtersLike: [],
      sort: ['createdAt:desc'],
      relations: 'patientProfile,commandCenters',
      limit: 50,
      offset: 100,
    });
  });

  it('exports the same request without paging', () => {
    const request = toListRequest(withSearch(emptyListState(), 'email', 'care'), userListSpec);
    expect(toExportRequest(request)).toEqual({
      filters: [],
      filtersLike: ['email~care'],
      sort: ['createdAt:desc'],
    });
  });

  it('goes back to the first page when the matching records change, and counts active filters', () => {
    const onPage4 = withPage(emptyListState(), 4);
    expect(withFilter(onPage4, 'isVerified', 'true').page).toBe(1);
    expect(withSearch(onPage4, 'name', 'x').page).toBe(1);
    expect(withSort(onPage4, { path: 'email', direction: 'asc' }).page).toBe(1);
    expect(withPageSize(onPage4, 10).page).toBe(1);
    expect(activeFilterCount(withSearch(withFilter(onPage4, 'isVerified', 'true'), 'name', 'x'))).toBe(2);
    expect(withFilter(withFilter(onPage4, 'isVerified', 'true'), 'isVerified', null).filters).toEqual({});
  });
});
