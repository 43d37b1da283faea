// The OpenID clients of the auth server (decisions §3): the console is a public client (no secret) that
// uses the CIBA and refresh grants; its id is the audience of the id tokens it receives.

export const CONSOLE_CLIENT_ID = 'careplane-console';

/** What the authenticator shows as the requesting application. */
export const clientNames: Readonly<Record<string, string>> = { [CONSOLE_CLIENT_ID]: 'Careplane console' };
