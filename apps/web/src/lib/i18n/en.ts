// The resource kit's texts (namespace `kit`): what every admin list, form, filter and detail page says, and
// the console-wide notices and session timer. Thai in th.ts, with the same keys. Sentences that name a record
// hold the name as a placeholder ({{noun}}, {{things}}), so each language puts it where its grammar wants it.
import type { Translation } from './translation.ts';

const kit = {
  loading: 'Loading…',
  loadingPage: 'Loading the page',
  searching: 'Searching…',
  cancel: 'Cancel',
  tryAgain: 'Try again',
  yes: 'Yes',
  no: 'No',
  none: 'None',
  list: {
    search: 'Search',
    searchIn: 'Search in',
    exportCsv: 'Export CSV',
    couldNotExport: 'Could not export the list.',
    newRecord: 'New {{noun}}',
    clearAll: 'Clear all',
    filters: 'Filters',
    activeFilters: '{{number}} active',
    // {{things}} is the list's title in lower case ("users").
    emptyFiltered: 'No {{things}} match these filters.',
    empty: 'No {{things}} yet.',
    couldNotLoad: 'Could not load the {{things}}.',
    rowsPerPage: 'Rows per page',
    pagination: '{{from}}–{{to}} of {{total}}',
    firstPage: 'First page',
    previousPage: 'Previous page',
    nextPage: 'Next page',
    lastPage: 'Last page',
    page: 'Page {{page}}',
    // What a sortable column's sort icon says to a screen reader.
    notSorted: 'Not sorted',
    sortedAscending: 'Sorted ascending',
    sortedDescending: 'Sorted descending',
  },
  filter: {
    any: 'Any',
    anyOf: 'Any of',
    recordId: 'A record id',
    mustBeUuid: 'Must be a uuid',
    mustBeNumber: 'Must be a number',
    exact: 'The exact value',
    clearFilters: 'Clear filters',
  },
  relation: {
    nothingFound: 'Nothing found',
    typeToSearch: 'Type to search',
    searchFor: 'Search for a {{noun}}',
    searchingLabel: 'Searching',
  },
  nouns: {
    record: 'record',
    user: 'user',
    patientProfile: 'patient profile',
    device: 'device',
    workstation: 'workstation',
    deviceJob: 'device job',
    iotDevice: 'IoT device',
    serviceProvider: 'service provider',
    commandCenter: 'command center',
    prescription: 'prescription',
  },
  patientProfileFallback: 'Patient profile',
  detail: {
    loading: 'Loading the {{noun}}',
    noSuch: 'No such {{noun}}',
    theRecord: 'The {{noun}}',
    notFound: 'This {{noun}} could not be found.',
    couldNotLoad: 'Could not load the {{noun}}.',
    backTo: 'Back to {{things}}',
    edit: 'Edit',
    delete: 'Delete',
    deleted: 'The {{noun}} “{{name}}” was deleted.',
    couldNotDelete: 'Could not delete the {{noun}}.',
    confirmDeleteTitle: 'Delete this {{noun}}?',
    confirmDeleteText: 'The {{noun}} “{{name}}” will be deleted. This cannot be undone.',
    confirmDelete: 'Delete {{noun}}',
  },
  promote: {
    title: 'Promote this {{noun}}?',
    text: 'The local roles of “{{name}}” ({{from}}) will be replaced by the single role {{to}}.',
    noRoles: 'none',
    done: '“{{name}}” now has the single local role {{role}}.',
    couldNotPromote: 'Could not promote.',
    toSingleRole: 'Promote to the single role',
    chooseRole: 'Choose a role',
    promote: 'Promote',
  },
  history: {
    title: 'History',
    loading: 'Loading the history',
    couldNotLoad: 'Could not load the history.',
    empty: 'No changes recorded.',
    when: 'When',
    who: 'Who',
    what: 'What',
    fields: 'Fields',
    deletedUser: 'A deleted user',
    system: 'The system',
    actions: { create: 'create', update: 'update', delete: 'delete' },
  },
  form: {
    unsavedTitle: 'Leave without saving?',
    unsavedText: 'What you changed in this form has not been saved and will be lost.',
    unsavedStay: 'Stay on the form',
    unsavedLeave: 'Leave without saving',
    created: 'The {{noun}} was created.',
    saved: 'The {{noun}} was saved.',
    editTitle: 'Edit {{name}}',
    checkForm: 'Please check the form.',
    notSavedOffline: 'Not saved: you are offline. What you typed stays; save again once online.',
    nothingChanged: 'Nothing changed, so nothing was saved.',
    saveChanges: 'Save changes',
    create: 'Create',
    jsonObject: 'A JSON object',
    onePerLine: 'One per line',
    mustBeJsonObject: 'Must be a JSON object',
    mustBeJson: 'Must be valid JSON',
    mustBeDate: 'Not a date: type it as DD.MM.YYYY, or pick it in the calendar',
    // {{item}} is the item's label ("Contact"), {{number}} its place in the list.
    item: '{{item}} {{number}}',
    removeItem: 'Remove {{item}} {{number}}',
    remove: 'Remove',
    addItem: 'Add {{item}}',
  },
  address: {
    title: 'Address title',
    street: 'Street',
    houseNumber: 'House number',
    district: 'District',
    city: 'City',
    county: 'County or province',
    postalCode: 'Postal code',
    country: 'Country',
    latitude: 'Latitude',
    longitude: 'Longitude',
    searchUnavailable: 'Address search is not available right now; type the address below.',
    find: 'Find the address',
    findHint: 'Type at least three characters and pick a place to fill the fields below',
    loadingSearch: 'Loading address search',
  },
  calendar: {
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    previousYear: 'Previous year',
    nextYear: 'Next year',
    previousDecade: 'Previous decade',
    nextDecade: 'Next decade',
    chooseMonth: 'Choose a month',
    chooseYear: 'Choose a year',
  },
  chart: {
    noData: 'No data in this range.',
    loading: 'Loading…',
    // A summed-up line's three parts (lib/resource-kit/charts/period-summary.ts).
    mean: '{{line}}, mean',
    highest: '{{line}}, highest',
    lowest: '{{line}}, lowest',
    period: 'Period',
    days: 'Days',
    orPickDays: 'Or pick days',
    clearDays: 'Clear the chosen days',
    hours: '{{number}} h',
    daysCount_one: '{{count}} day',
    daysCount_other: '{{count}} days',
  },
  // Offline work (decision 046). {{label}} is an action's button label ('Delivered'), {{subject}} what it was
  // done to ('Metformin 500 mg …').
  offline: {
    // Every page but those of the areas that work offline (their banner says more).
    notice:
      'You are offline: what you see may be out of date, and nothing reaches the server until you are back online.',
    bannerOffline:
      'You are offline. Lists show what was last loaded; actions are kept and sent when you are back online.',
    bannerPending_one: '{{count}} action waits to be sent.',
    bannerPending_other: '{{count}} actions wait to be sent.',
    bannerSending: 'Sending the kept actions…',
    queued: '{{label}} — queued, will send when online',
    // Kept while the browser says it is online: the server could not take it yet, or an earlier action on the
    // same record waits before it.
    queuedOnline: '{{label}} — queued, sending shortly',
    queuedNotice: '“{{label}}” kept on this device: {{subject}}. It is sent when you are back online.',
    queuedNoticeBare: '“{{label}}” kept on this device. It is sent when you are back online.',
    queuedNoticeOnline:
      '“{{label}}” kept on this device: {{subject}}. It is sent as soon as the server takes it.',
    queuedNoticeOnlineBare: '“{{label}}” kept on this device. It is sent as soon as the server takes it.',
    needsNetwork: '{{label}} needs the network (phone signature)',
    needsNetworkHint: 'Signing asks your phone through the server: connect to the network to continue.',
    sent: 'Kept action sent: {{label}} — {{subject}}.',
    sentBare: 'Kept action sent: {{label}}.',
    notApplied: 'Not applied',
    conflict:
      "Someone else already moved this prescription: it is now {{status}}. Your '{{label}}' was not applied.",
    conflictOn:
      "Someone else already moved the prescription {{subject}}: it is now {{status}}. Your '{{label}}' was not applied.",
    rejected: "Your '{{label}}' was not applied: {{message}}",
    rejectedOn: "Your '{{label}}' of {{subject}} was not applied: {{message}}",
    withNote: '{{text}}. Your note, to pass on: “{{note}}”',
    retrying: 'Could not send yet ({{message}}); trying again shortly.',
    signInToSend: 'Sign in again to send the kept actions.',
    // Log out while actions wait to be sent (decision 076).
    logoutTitle: 'Actions not sent yet',
    logoutText_one:
      '{{count}} action is kept on this device, not sent yet. It is sent after you sign in again here. Log out anyway?',
    logoutText_other:
      '{{count}} actions are kept on this device, not sent yet. They are sent after you sign in again here. Log out anyway?',
    logoutConfirm: 'Log out',
    logoutCancel: 'Stay signed in',
  },
  closeNotification: 'Close the notification',
  // The purposes the server writes on a job itself (lib/i18n/job-purpose.ts), as the server stores them.
  jobPurpose: {
    careTeamAlert: 'Alert sent to the user by the care team',
    careTeamReboot: "Reboot of the user's device requested by the care team",
  },
  // The session timer: the notice after Cancel on the expiry dialog (the dialog's own texts are the spec's,
  // lib/i18n/spec-texts.ts). {{seconds}} is about how many seconds are left.
  session: {
    endingTitle: 'Session ending',
    endingText: 'About {{seconds}} seconds of your session are left. Save your work, then sign in again.',
    // Said with the sign-out when actions are kept on this device (decision 076).
    keptAfter_one: '{{count}} action kept on this device is sent after you sign in again here.',
    keptAfter_other: '{{count}} actions kept on this device are sent after you sign in again here.',
  },
  requestFailed: 'Request failed ({{status}})',
  network: {
    offline: 'You are offline. This needs the network: it loads again once you are back online.',
    // An action (not a read) tried without a network: nothing waits to be sent later (decision 108).
    offlineAction:
      'You are offline, so this was not sent: it needs the network. Try again once you are back online.',
    unreachable: 'The server could not be reached. Check the connection, then try again.',
  },
  // Where a person can work: `label` short, for the top bar's menu; `link` a sentence, for the account page.
  areas: {
    admin: { label: 'Admin area', link: 'Go to the admin area' },
    pharmacy: { label: 'Pharmacy', link: 'Go to the pharmacy: prescriptions to prepare' },
    deliveries: { label: 'Pickups and deliveries', link: 'Go to your pickups and deliveries' },
    written: {
      label: 'Prescriptions you wrote',
      link: 'Go to the prescriptions you wrote: issue them from here',
    },
    mine: { label: 'Your prescriptions', link: 'See your prescriptions and where they are' },
    commandCenter: { label: 'Command center', link: 'Go to your command center' },
    documents: { label: 'Documents', link: 'Your documents: store, share and sign PDFs' },
  },
  sendAlert: {
    title: 'Send an alert to {{name}}',
    message: 'Message',
    hint: "Shown on the user's devices. One line, at most {{max}} characters.",
    notValid: 'Not a valid message',
    send: 'Send alert',
    // The message the dialog suggests (the contract's USER_ALERT_SUGGESTION).
    suggestion: 'Your care team needs you to get in touch with them.',
  },
} as const;

export default kit;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    kit: Translation<typeof kit>;
  }
}
