// Every address of the console in one place (spec §2): routes are registered from here and links are built
// from here, so no literal URL appears in a page.

const withId = (base: string, id?: string) => (id ? `${base}/${encodeURIComponent(id)}` : base);

/** What a link to a person's page in the command center asks of it: to bring the chart into view. */
export interface VitalSignsState {
  locateVitalSigns?: boolean;
}

export const paths = {
  home: { pattern: '/', to: () => '/' },
  login: { pattern: '/login', to: () => '/login' },
  account: { pattern: '/account', to: () => '/account' },
  /**
   * A supervisor's view of their command centers (docs/decisions/027), or one person of them with `userId`
   * (decision 102), on the chart of one of their IoT devices with `deviceId`; not in the spec's table.
   */
  commandCenter: {
    pattern: '/command-center/:userId?',
    to: (userId?: string, deviceId?: string) =>
      withId('/command-center', userId) +
      (userId && deviceId ? `?device=${encodeURIComponent(deviceId)}` : ''),
    /** The state of a link to a device's chart that takes the reader there, at every tap (an alert's device). */
    locate: { locateVitalSigns: true } satisfies VitalSignsState,
  },
  documents: {
    /** `scope`: own (default), shared or waiting. */
    list: {
      pattern: '/documents',
      to: (scope?: string) => (scope ? `/documents?scope=${scope}` : '/documents'),
    },
    detail: { pattern: '/documents/:id', to: (id: string) => withId('/documents', id) },
  },
  /** Public: anyone checks a PDF's signatures. */
  verify: { pattern: '/verify', to: () => '/verify' },
  admin: {
    root: { pattern: '/admin', to: () => '/admin' },
    users: {
      list: { pattern: 'users', to: () => '/admin/users' },
      detail: { pattern: 'users/:id', to: (id: string) => withId('/admin/users', id) },
      edit: { pattern: 'users/edit/:id?', to: (id?: string) => withId('/admin/users/edit', id) },
    },
    patients: { list: { pattern: 'patients', to: () => '/admin/patients' } },
    devices: {
      list: { pattern: 'devices', to: () => '/admin/devices' },
      detail: { pattern: 'devices/:id', to: (id: string) => withId('/admin/devices', id) },
      edit: { pattern: 'devices/edit/:id?', to: (id?: string) => withId('/admin/devices/edit', id) },
    },
    deviceJobs: {
      list: { pattern: 'devices/jobs', to: () => '/admin/devices/jobs' },
      add: { pattern: 'devices/jobs/add', to: () => '/admin/devices/jobs/add' },
      detail: { pattern: 'devices/jobs/:id', to: (id: string) => withId('/admin/devices/jobs', id) },
    },
    workstations: {
      list: { pattern: 'workstations', to: () => '/admin/workstations' },
      detail: { pattern: 'workstations/:id', to: (id: string) => withId('/admin/workstations', id) },
      edit: {
        pattern: 'workstations/edit/:id?',
        to: (id?: string) => withId('/admin/workstations/edit', id),
      },
    },
    iotDevices: {
      list: { pattern: 'iot-devices', to: () => '/admin/iot-devices' },
      /** Not in the spec's table, which has no way to create an IoT device (docs/decisions/021). */
      create: { pattern: 'iot-devices/create', to: () => '/admin/iot-devices/create' },
      detail: { pattern: 'iot-devices/:id?', to: (id?: string) => withId('/admin/iot-devices', id) },
      edit: { pattern: 'iot-devices/edit/:id', to: (id: string) => withId('/admin/iot-devices/edit', id) },
    },
    prescriptions: {
      list: { pattern: 'prescriptions', to: () => '/admin/prescriptions' },
      detail: { pattern: 'prescriptions/:id', to: (id: string) => withId('/admin/prescriptions', id) },
      /** Not in the spec's table, which has no way to create or edit a prescription (docs/decisions/021). */
      edit: {
        pattern: 'prescriptions/edit/:id?',
        to: (id?: string) => withId('/admin/prescriptions/edit', id),
      },
    },
    serviceProviders: {
      list: { pattern: 'service-providers', to: () => '/admin/service-providers' },
      create: { pattern: 'service-providers/create', to: () => '/admin/service-providers/create' },
      detail: {
        pattern: 'service-providers/:id?',
        to: (id?: string) => withId('/admin/service-providers', id),
      },
      edit: {
        pattern: 'service-providers/edit/:id',
        to: (id: string) => withId('/admin/service-providers/edit', id),
      },
    },
    /** Not in the spec's table: every alert, filtered, acknowledged and closed (docs/decisions/038). */
    alerts: {
      list: {
        pattern: 'alerts',
        to: (query?: Record<string, string>) =>
          query && Object.keys(query).length
            ? `/admin/alerts?${new URLSearchParams(query)}`
            : '/admin/alerts',
      },
    },
    commandCenters: {
      list: { pattern: 'command-centers', to: () => '/admin/command-centers' },
      create: { pattern: 'command-centers/create', to: () => '/admin/command-centers/create' },
      detail: { pattern: 'command-centers/:id?', to: (id?: string) => withId('/admin/command-centers', id) },
      edit: {
        pattern: 'command-centers/edit/:id',
        to: (id: string) => withId('/admin/command-centers/edit', id),
      },
    },
    /** Named by the spec's menu; no page is defined for it, so it answers the 404 page. */
    settings: { to: () => '/admin/settings' },
  },
  pharmacy: {
    waiting: { pattern: '/pharmacy/:id?', to: (id?: string) => withId('/pharmacy', id) },
    ready: { pattern: '/pharmacy/ready/:id?', to: (id?: string) => withId('/pharmacy/ready', id) },
    pickedUp: { pattern: '/pharmacy/picked-up/:id?', to: (id?: string) => withId('/pharmacy/picked-up', id) },
  },
  prescriptions: {
    waiting: { pattern: '/prescriptions/:id?', to: (id?: string) => withId('/prescriptions', id) },
    pickedUp: {
      pattern: '/prescriptions/picked-up/:id?',
      to: (id?: string) => withId('/prescriptions/picked-up', id),
    },
    /** A doctor's prescriptions, to issue and to follow (not in the spec's table: docs/decisions/031). */
    written: { pattern: '/prescriptions/written', to: () => '/prescriptions/written' },
    /** A doctor writes a prescription of their own (docs/decisions/084). */
    write: { pattern: '/prescriptions/written/new', to: () => '/prescriptions/written/new' },
    /** A patient's own prescriptions, read-only (docs/decisions/031). */
    mine: { pattern: '/prescriptions/mine', to: () => '/prescriptions/mine' },
  },
} as const;
