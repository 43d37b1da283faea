// The route table of spec §2. Every page loads lazily (a failed chunk reloads the page, guarded); the
// authenticated branch runs the guard before any of its pages loads.
import { createBrowserRouter, createMemoryRouter, type RouteObject } from 'react-router';
import { paths } from '../config/paths.ts';
import { requireSession } from '../features/auth/api/guard.ts';
import { importWithReload } from '../lib/chunk-reload.ts';
import { AuthenticatedRoute } from './routes/authenticated.tsx';
import { PageLoader } from './routes/page-loader.tsx';
import { RootRoute } from './routes/root.tsx';
import { RouteErrorPage } from './routes/route-error.tsx';

/** A lazily loaded route module: it exports the route's `Component`. */
const page = (load: () => Promise<Pick<RouteObject, 'Component'>>) => ({
  lazy: importWithReload(async () => ({ Component: (await load()).Component })),
});

const notYetAvailable = (title: string) => ({
  handle: { title },
  ...page(() => import('./routes/not-yet-available.tsx')),
});

const admin = paths.admin;

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootRoute,
    ErrorBoundary: RouteErrorPage,
    HydrateFallback: PageLoader,
    children: [
      { index: true, ...page(() => import('./routes/landing.tsx')) },
      { path: paths.login.pattern, ...page(() => import('./routes/login.tsx')) },
      {
        id: 'authenticated',
        Component: AuthenticatedRoute,
        loader: requireSession,
        // The token may expire between two pages: check on every navigation, not only on the first.
        shouldRevalidate: () => true,
        children: [
          { path: paths.account.pattern, ...page(() => import('./routes/account.tsx')) },
          {
            path: admin.root.pattern,
            ...page(() => import('./layouts/admin-layout.tsx')),
            children: [
              { index: true, ...notYetAvailable('Admin home') },
              { path: admin.users.list.pattern, ...notYetAvailable('Users') },
              { path: admin.users.detail.pattern, ...notYetAvailable('User') },
              { path: admin.users.edit.pattern, ...notYetAvailable('Edit user') },
              { path: admin.patients.list.pattern, ...notYetAvailable('Patients') },
              { path: admin.devices.list.pattern, ...notYetAvailable('Devices') },
              { path: admin.devices.detail.pattern, ...notYetAvailable('Device') },
              { path: admin.devices.edit.pattern, ...notYetAvailable('Edit device') },
              { path: admin.deviceJobs.list.pattern, ...notYetAvailable('Device Jobs') },
              { path: admin.deviceJobs.add.pattern, ...notYetAvailable('Add device job') },
              { path: admin.deviceJobs.detail.pattern, ...notYetAvailable('Device job') },
              { path: admin.workstations.list.pattern, ...notYetAvailable('Workstations') },
              { path: admin.workstations.detail.pattern, ...notYetAvailable('Workstation') },
              { path: admin.workstations.edit.pattern, ...notYetAvailable('Edit workstation') },
              { path: admin.iotDevices.list.pattern, ...notYetAvailable('IOT Devices') },
              { path: admin.iotDevices.detail.pattern, ...notYetAvailable('IOT device') },
              { path: admin.iotDevices.edit.pattern, ...notYetAvailable('Edit IOT device') },
              { path: admin.prescriptions.list.pattern, ...notYetAvailable('Prescriptions') },
              { path: admin.prescriptions.detail.pattern, ...notYetAvailable('Prescription') },
              { path: admin.serviceProviders.list.pattern, ...notYetAvailable('Service Providers') },
              { path: admin.serviceProviders.create.pattern, ...notYetAvailable('New service provider') },
              { path: admin.serviceProviders.detail.pattern, ...notYetAvailable('Service provider') },
              { path: admin.serviceProviders.edit.pattern, ...notYetAvailable('Edit service provider') },
              { path: admin.commandCenters.list.pattern, ...notYetAvailable('Command Centers') },
              { path: admin.commandCenters.create.pattern, ...notYetAvailable('New command center') },
              { path: admin.commandCenters.detail.pattern, ...notYetAvailable('Command center') },
              { path: admin.commandCenters.edit.pattern, ...notYetAvailable('Edit command center') },
              // Unknown admin addresses (Settings among them) answer 404 inside the admin layout.
              {
                path: '*',
                ...page(async () => ({ Component: (await import('./routes/not-found.tsx')).NotFoundPanel })),
              },
            ],
          },
          {
            ...page(() => import('./layouts/pharmacy-layout.tsx')),
            children: [
              { path: paths.pharmacy.waiting.pattern, ...notYetAvailable('Waiting prescriptions') },
              { path: paths.pharmacy.ready.pattern, ...notYetAvailable('Ready prescriptions') },
              { path: paths.pharmacy.pickedUp.pattern, ...notYetAvailable('Picked-up prescriptions') },
            ],
          },
          {
            ...page(() => import('./layouts/prescriptions-layout.tsx')),
            children: [
              { path: paths.prescriptions.waiting.pattern, ...notYetAvailable('Waiting prescriptions') },
              { path: paths.prescriptions.pickedUp.pattern, ...notYetAvailable('Picked-up prescriptions') },
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
