// Every text of the console's offline work (decision 046), in one place to translate: the banner, the queued
// actions on their cards, the actions that need the network, and the notices once a queued action is sent.
// `label` is an action's button label ('Delivered'), `subject` what it was done to ('Metformin 500 mg …').
export const offlineTexts = {
  bannerOffline:
    'You are offline. Lists show what was last loaded; actions are kept and sent when you are back online.',
  bannerPending: (count: number) =>
    count === 1 ? '1 action waits to be sent.' : `${count} actions wait to be sent.`,
  bannerSending: 'Back online: sending the kept actions…',
  queued: (label: string) => `${label} — queued, will send when online`,
  queuedNotice: (label: string, subject: string | undefined) =>
    `${label} kept on this device${subject ? `: ${subject}` : ''}. It is sent when you are back online.`,
  needsNetwork: (label: string) => `${label} needs the network (phone signature)`,
  needsNetworkHint: 'Signing asks your phone through the server: connect to the network to continue.',
  sent: (label: string, subject: string | undefined) =>
    `Sent while back online: ${label}${subject ? ` — ${subject}` : ''}.`,
  conflictTitle: 'Not applied',
  conflict: (label: string, status: string) =>
    `Someone else already moved this prescription: it is now ${status}. Your '${label}' was not applied.`,
  rejectedTitle: 'Not applied',
  rejected: (label: string, message: string) => `Your '${label}' was not applied: ${message}`,
  retrying: (message: string) => `Could not send yet (${message}); trying again shortly.`,
  signInToSend: 'Sign in again to send the kept actions.',
} as const;
