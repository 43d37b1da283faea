// What each tab of the pharmacy and prescriptions areas lists (decisions §5), for the queue that shows it and
// for the menu that counts it: the list filters of a tab, what it keeps of them, and the hook that reads them.
// Both ask the same queries, so a count and its queue are one request.
import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ListResponse } from '@careplane/shared/common/http';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import {
  availableActions,
  pickerOf,
  type PrescriptionViewer,
} from '@careplane/shared/prescriptions/prescription-actors';
import type {
  Prescription,
  PrescriptionViewerAnswer,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { custodyQueries } from '../api/custody.ts';

export type PharmacyTab = 'waiting' | 'ready' | 'picked-up';
export type PrescriptionsTab = 'waiting' | 'picked-up' | 'written' | 'mine';
export type CustodyTab =
  { area: 'pharmacy'; tab: PharmacyTab } | { area: 'prescriptions'; tab: PrescriptionsTab };

/** Decisions §5: pharmacy Waiting = issued and waiting (with what is on hold or returned, to resume or restock). */
function pharmacyStatuses(tab: PharmacyTab): PrescriptionStatus[] {
  if (tab === 'waiting') return ['issued', 'waiting', 'on_hold', 'returned'];
  return tab === 'ready' ? ['ready'] : ['picked_up'];
}

const isDoctor = (viewer: PrescriptionViewer) => viewer.localRoles.includes('doctor');

interface Provider {
  path: 'supplier.id' | 'shipper.id';
  id: string;
}

/**
 * The list filters of a tab: one list each. The prescriptions area's Waiting tab is what waits for this user:
 * prescriptions ready to pick up and, for a doctor, the ones they wrote that wait to be issued.
 */
function listsOf(tab: CustodyTab, viewer: PrescriptionViewer, provider: Provider | undefined): string[][] {
  const me = viewer.userId ?? '';
  const by = provider ? [`${provider.path}~${provider.id}`] : [];
  if (tab.area === 'pharmacy') return [[`status~${pharmacyStatuses(tab.tab).join(',')}`, ...by]];
  switch (tab.tab) {
    case 'waiting':
      return [
        ['status~ready', ...by],
        ...(isDoctor(viewer) && !provider ? [['status~new', `issuer.id~${me}`]] : []),
      ];
    case 'picked-up':
      return [['status~picked_up', ...by]];
    case 'written':
      return [[`issuer.id~${me}`]];
    case 'mine':
      return [[`recipient.id~${me}`]];
  }
}

/** What a tab keeps of its lists: Waiting what the user can act on, Picked-up what the user picked up. */
function keep(tab: CustodyTab, prescription: Prescription, viewer: PrescriptionViewer) {
  if (tab.area === 'pharmacy' || viewer.isAdmin) return true;
  switch (tab.tab) {
    case 'waiting':
      return availableActions(prescription, viewer).some(
        (action) => action === 'pickup' || action === 'issue',
      );
    case 'picked-up':
      return pickerOf(prescription) === viewer.userId;
    case 'written':
    case 'mine':
      return true;
  }
}

/** The pharmacy a pharmacy tab shows: the route's id, else the user's first pharmacy employer. */
function providerOf(tab: CustodyTab, viewer: PrescriptionViewerAnswer, routeId: string | undefined) {
  if (tab.area === 'pharmacy') {
    const pharmacy = routeId ?? viewer.employers.find((employer) => employer.type === 'pharmacy')?.id;
    return pharmacy ? ({ path: 'supplier.id', id: pharmacy } satisfies Provider) : undefined;
  }
  return routeId ? ({ path: 'shipper.id', id: routeId } satisfies Provider) : undefined;
}

export type TabItems =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  /** A pharmacist's tab without a pharmacy to show. */
  | { state: 'no-pharmacy' }
  /** A tab of a provider (the route's id) that does not employ this user: its lists are not theirs to see. */
  | { state: 'not-employer' }
  | { state: 'ready'; items: Prescription[]; pharmacyTitle: string | undefined };

interface Plan {
  tab: CustodyTab;
  /** A pharmacist's tab without a pharmacy to show asks nothing, nor a tab of a provider not the user's. */
  blocked: false | 'no-pharmacy' | 'not-employer';
  lists: string[][];
  provider: Provider | undefined;
}

/** The provider types whose employees work a tab of each area. */
const areaProviders = { pharmacy: ['pharmacy'], prescriptions: ['courier', 'nurse'] };

/** Whether the route's provider employs the viewer in the area's trade (an admin may open any). */
const worksFor = (tab: CustodyTab, viewer: PrescriptionViewerAnswer, routeId: string) =>
  viewer.isAdmin ||
  viewer.employers.some(
    (employer) => employer.id === routeId && areaProviders[tab.area].includes(employer.type),
  );

function blockOf(
  tab: CustodyTab,
  viewer: PrescriptionViewerAnswer,
  routeId: string | undefined,
): Plan['blocked'] {
  const byProvider = tab.area === 'pharmacy' || tab.tab === 'waiting' || tab.tab === 'picked-up';
  if (byProvider && routeId !== undefined && !worksFor(tab, viewer, routeId)) return 'not-employer';
  const pharmacy = tab.area === 'pharmacy' && !viewer.isAdmin && !providerOf(tab, viewer, routeId);
  return pharmacy ? 'no-pharmacy' : false;
}

function planOf(tab: CustodyTab, viewer: PrescriptionViewerAnswer, routeId: string | undefined): Plan {
  const provider = providerOf(tab, viewer, routeId);
  const blocked = blockOf(tab, viewer, routeId);
  return { tab, blocked, provider, lists: blocked ? [] : listsOf(tab, viewer, provider) };
}

type ListResult = Pick<UseQueryResult<ListResponse<Prescription>>, 'isPending' | 'error' | 'data'>;

function settle(plan: Plan, viewer: PrescriptionViewerAnswer, results: readonly ListResult[]): TabItems {
  if (plan.blocked) return { state: plan.blocked };
  if (results.some((list) => list.isPending)) return { state: 'loading' };
  const failed = results.find((list) => list.error);
  if (failed?.error) return { state: 'failed', message: failed.error.message };
  const byId = new Map(results.flatMap((list) => list.data?.items ?? []).map((item) => [item.id, item]));
  const items = [...byId.values()]
    .filter((item) => keep(plan.tab, item, viewer))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const pharmacyTitle =
    plan.tab.area === 'pharmacy'
      ? viewer.employers.find((employer) => employer.id === plan.provider?.id)?.title
      : undefined;
  return { state: 'ready', items, pharmacyTitle };
}

/** The prescriptions of each of `tabs` for the signed-in viewer, newest first (one request per list). */
export function useTabsItems(tabs: readonly CustodyTab[], routeId: string | undefined): TabItems[] {
  const viewer = useQuery(custodyQueries.viewer());
  const plans = viewer.data ? tabs.map((tab) => planOf(tab, viewer.data, routeId)) : [];
  const results = useQueries({
    queries: plans.flatMap((plan) => plan.lists.map((filters) => custodyQueries.queue(filters))),
  });
  if (viewer.error) return tabs.map(() => ({ state: 'failed', message: viewer.error.message }));
  if (!viewer.data) return tabs.map(() => ({ state: 'loading' }));
  let at = 0;
  return plans.map((plan) => {
    const mine = results.slice(at, at + plan.lists.length);
    at += plan.lists.length;
    return settle(plan, viewer.data, mine);
  });
}

/** How many prescriptions each tab holds, once known (for the area's menu). */
export function useTabCounts(
  tabs: readonly CustodyTab[],
  routeId: string | undefined,
): (number | undefined)[] {
  return useTabsItems(tabs, routeId).map((items) =>
    items.state === 'ready' ? items.items.length : undefined,
  );
}
