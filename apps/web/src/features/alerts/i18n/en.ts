// The texts of alerts (namespace `alerts`): the alerts page, a record's alerts and one alert with its actions.
// Thai in th.ts, with the same keys. An alert's own title and origin come from the shared alertTitle.
import type { Translation } from '@/lib/i18n/translation.ts';

const alerts = {
  page: {
    title: 'Alerts',
    countAll_one: '{{count}} alert',
    countAll_other: '{{count}} alerts',
    countActive_one: '{{count}} open alert',
    countActive_other: '{{count}} open alerts',
    countClosed_one: '{{count}} closed alert',
    countClosed_other: '{{count}} closed alerts',
    filters: 'Filters',
    state: 'State',
    open: 'Open',
    closed: 'Closed',
    all: 'All',
    severity: 'Severity',
    any: 'Any',
    anyone: 'Anyone',
    commandCenter: 'Command center',
    iotDevice: 'IoT device',
    patient: 'Patient',
    list: 'Alerts',
    loading: 'Loading the alerts',
    loadFailed: 'Could not load the alerts.',
    noneMatch: 'No alerts match.',
  },
  record: {
    title: 'Alerts',
    titleCount: 'Alerts ({{total}})',
    none: 'No alerts.',
  },
  entry: {
    // A person who acted, when the answer gives no name for them; the lists embed names (decision 104).
    aUser: 'a user',
    you: 'you',
    someone: 'someone',
    via: 'via ',
    from: 'From ',
    noPatient: 'Not about a particular patient',
    openAcknowledged: 'Open, acknowledged',
    open: 'Open',
    closed: 'Closed',
    acknowledgedBy: 'Acknowledged by {{name}} on {{time}}',
    acknowledgedByYou: 'Acknowledged by you on {{time}}',
    closedBy: ' by {{name}}',
    closedOn: ' on {{time}}',
    closingNote: '. Closing note: {{note}}',
    whatWasDone: 'What was done',
    noteNeeded: 'Needed to close the alert; the note stays with it.',
    noteTooLong: 'At most {{max}} characters: this note has {{count}}',
    closeAlert: 'Close alert',
    // Said once an alert is closed: it leaves the list of open ones.
    closedNotice: 'Alert closed: {{title}}.',
    closedMeanwhileTitle: 'Your note was not saved',
    closedMeanwhile: '{{reason}}. Your note, to pass on: “{{note}}”',
    cancel: 'Cancel',
    acknowledge: 'Acknowledge',
    close: 'Close…',
  },
} as const;

export default alerts;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    alerts: Translation<typeof alerts>;
  }
}
