// The route table of spec §2. Every page loads lazily (a failed chunk reloads the page, guarded); the
// authenticated branch runs the guard before any of its pages loads.
import { createBrowserRouter, createMemoryRouter, type RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { requireSession } from '@/features/auth/api/guard.ts';
import { importWithReload } from '@/lib/chunk-reload.ts';
import { OWN_OFFLINE_BANNER } from '@/lib/offline/offline-notice.tsx';
import { loadAllNamespaces, loadNamespaces } from './i18n/i18n.ts';
import { PageLoader } from './routes/page-loader.tsx';
import { RootRoute } from './routes/root.tsx';
import { RouteErrorPage } from './routes/route-error.tsx';

/**
 * A lazily loaded route module: it exports the route's `Component`. The catalogs its page reads load with it
 * (decision 047), so the page renders in its language at once: the public pages name theirs, the signed-in
 * branch loads them all (every area is a click away).
 */
const page = (
  load: () => Promise<Pick<RouteObject, 'Component'>>,
  namespaces: readonly string[] | 'all' = [],
) => ({
  lazy: importWithReload(async () => {
    const [module] = await Promise.all([
      load(),
      namespaces === 'all' ? loadAllNamespaces() : loadNamespaces(namespaces),
    ]);
    return { Component: module.Component };
  }),
});

/** A page of a feature's route module, which exports several pages by name. */
const featurePage = <M,>(load: () => Promise<M>, pick: (module: M) => RouteObject['Component']) =>
  page(async () => ({ Component: pick(await load()) }));

const users = () => import('@/features/users/routes.tsx');
const devices = () => import('@/features/devices/routes.tsx');
const iot = () => import('@/features/iot/routes.tsx');
const prescriptions = () => import('@/features/prescriptions/routes.tsx');
const custody = () => import('@/features/prescriptions/custody-routes.tsx');
const providers = () => import('@/features/service-providers/routes.tsx');
const centers = () => import('@/features/command-centers/routes.tsx');
const withAlerts = () => import('./routes/record-alerts.tsx');
const alerts = () => import('@/features/alerts/routes.tsx');

type CustodyPages = Awaited<ReturnType<typeof custody>>;
/** A page of the pharmacy or prescriptions area, titled. */
const custodyPage = (title: string, pick: (module: CustodyPages) => RouteObject['Component']) => ({
  handle: { title },
  ...featurePage(custody, pick),
});

const admin = paths.admin;

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootRoute,
    ErrorBoundary: RouteErrorPage,
    HydrateFallback: PageLoader,
    children: [
      { index: true, ...page(() => import('./routes/landing.tsx'), ['landing', 'auth']) },
      { path: paths.login.pattern, ...page(() => import('./routes/login.tsx'), ['auth']) },
      { path: paths.verify.pattern, ...page(() => import('./routes/verify.tsx'), ['documents']) },
      {
        id: 'authenticated',
        // The guard is here, the layout (session timer, confirm dialogs) loads with the first signed-in page.
        ...page(() => import('./routes/authenticated.tsx'), 'all'),
        loader: requireSession,
        // The token may expire between two pages: check on every navigation, not only on the first.
        shouldRevalidate: () => true,
        children: [
          { path: paths.account.pattern, ...page(() => import('./routes/account.tsx')) },
          { path: paths.commandCenter.pattern, ...page(() => import('./routes/command-center.tsx')) },
          { path: paths.documents.list.pattern, ...page(() => import('./routes/documents.tsx')) },
          { path: paths.documents.detail.pattern, ...page(() => import('./routes/document.tsx')) },
          {
            path: admin.root.pattern,
            ...page(() => import('./layouts/admin-layout.tsx')),
            children: [
              { index: true, ...page(() => import('./routes/admin-home.tsx')) },
              { path: admin.users.list.pattern, ...featurePage(users, (m) => m.UserListPage) },
              { path: admin.users.detail.pattern, ...featurePage(withAlerts, (m) => m.UserPageWithAlerts) },
              { path: admin.users.edit.pattern, ...featurePage(users, (m) => m.UserEditPage) },
              { path: admin.patients.list.pattern, ...featurePage(users, (m) => m.PatientListPage) },
              { path: admin.devices.list.pattern, ...featurePage(devices, (m) => m.DeviceListPage) },
              { path: admin.devices.detail.pattern, ...featurePage(devices, (m) => m.DeviceDetailPage) },
              { path: admin.devices.edit.pattern, ...featurePage(devices, (m) => m.DeviceEditPage) },
              { path: admin.deviceJobs.list.pattern, ...featurePage(devices, (m) => m.DeviceJobListPage) },
              { path: admin.deviceJobs.add.pattern, ...featurePage(devices, (m) => m.DeviceJobAddPage) },
              {
                path: admin.deviceJobs.detail.pattern,
                ...featurePage(devices, (m) => m.DeviceJobDetailPage),
              },
              {
                path: admin.workstations.list.pattern,
                ...featurePage(devices, (m) => m.WorkstationListPage),
              },
              {
                path: admin.workstations.detail.pattern,
                ...featurePage(devices, (m) => m.WorkstationDetailPage),
              },
              {
                path: admin.workstations.edit.pattern,
                ...featurePage(devices, (m) => m.WorkstationEditPage),
              },
              { path: admin.iotDevices.list.pattern, ...featurePage(iot, (m) => m.IotDeviceListPage) },
              { path: admin.iotDevices.create.pattern, ...featurePage(iot, (m) => m.IotDeviceEditPage) },
              {
                path: admin.iotDevices.detail.pattern,
                ...featurePage(withAlerts, (m) => m.IotDevicePageWithAlerts),
              },
              { path: admin.iotDevices.edit.pattern, ...featurePage(iot, (m) => m.IotDeviceEditPage) },
              {
                path: admin.prescriptions.list.pattern,
                ...featurePage(prescriptions, (m) => m.PrescriptionListPage),
              },
              {
                path: admin.prescriptions.detail.pattern,
                ...featurePage(prescriptions, (m) => m.PrescriptionDetailPage),
              },
              {
                path: admin.prescriptions.edit.pattern,
                ...featurePage(prescriptions, (m) => m.PrescriptionEditPage),
              },
              {
                path: admin.serviceProviders.list.pattern,
                ...featurePage(providers, (m) => m.ServiceProviderListPage),
              },
              {
                path: admin.serviceProviders.create.pattern,
                ...featurePage(providers, (m) => m.ServiceProviderEditPage),
              },
              {
                path: admin.serviceProviders.detail.pattern,
                ...featurePage(providers, (m) => m.ServiceProviderDetailPage),
              },
              {
                path: admin.serviceProviders.edit.pattern,
                ...featurePage(providers, (m) => m.ServiceProviderEditPage),
              },
              { path: admin.alerts.list.pattern, ...featurePage(alerts, (m) => m.AlertListPage) },
              {
                path: admin.commandCenters.list.pattern,
                ...featurePage(centers, (m) => m.CommandCenterListPage),
              },
              {
                path: admin.commandCenters.create.pattern,
                ...featurePage(centers, (m) => m.CommandCenterEditPage),
              },
              {
                path: admin.commandCenters.detail.pattern,
                ...featurePage(centers, (m) => m.CommandCenterDetailPage),
              },
              {
                path: admin.commandCenters.edit.pattern,
                ...featurePage(centers, (m) => m.CommandCenterEditPage),
              },
              // Unknown admin addresses (Settings among them) answer 404 inside the admin layout.
              {
                path: '*',
                ...page(async () => ({ Component: (await import('./routes/not-found.tsx')).NotFoundPanel })),
              },
            ],
          },
          {
            // The areas that work offline show their own offline banner (area-layout.tsx), not the shell's.
            handle: OWN_OFFLINE_BANNER,
            ...page(() => import('./layouts/pharmacy-layout.tsx')),
            children: [
              {
                path: paths.pharmacy.waiting.pattern,
                ...custodyPage('Waiting prescriptions', (m) => m.PharmacyWaitingPage),
              },
              {
                path: paths.pharmacy.ready.pattern,
                ...custodyPage('Ready prescriptions', (m) => m.PharmacyReadyPage),
              },
              {
                path: paths.pharmacy.pickedUp.pattern,
                ...custodyPage('Picked-up prescriptions', (m) => m.PharmacyPickedUpPage),
              },
            ],
          },
          {
            handle: OWN_OFFLINE_BANNER,
            ...page(() => import('./layouts/prescriptions-layout.tsx')),
            children: [
              {
                path: paths.prescriptions.waiting.pattern,
                ...custodyPage('Waiting prescriptions', (m) => m.PrescriptionsWaitingPage),
              },
              {
                path: paths.prescriptions.pickedUp.pattern,
                ...custodyPage('Picked-up prescriptions', (m) => m.PrescriptionsPickedUpPage),
              },
              {
                path: paths.prescriptions.written.pattern,
                ...custodyPage('Prescriptions you wrote', (m) => m.PrescriptionsWrittenPage),
              },
              {
                path: paths.prescriptions.write.pattern,
                ...custodyPage('Write a prescription', (m) => m.PrescriptionsWritePage),
              },
              {
                path: paths.prescriptions.mine.pattern,
                ...custodyPage('Your prescriptions', (m) => m.PrescriptionsMinePage),
              },
            ],
          },
        ],
      },
      { path: '*', ...page(() => import('./routes/not-found.tsx')) },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);

/** The same table in memory, at the given address: for tests. */
export const createTestRouter = (initialEntries: string[]) => createMemoryRouter(routes, { initialEntries });
