// What the app was opened with: an enrollment link (/authenticator/enroll#code=..&issuer=..), a QR sign-in
// link (/authenticator/qr#s=..), or nothing. Read once at start; the secret is then wiped from the address
// bar and the history, so that it is neither shown nor bookmarked.
import { parseEnrollmentInput, parseQrLink } from '@careplane/shared/authenticator/protocol';

export type Launch =
  | { kind: 'none' }
  | { kind: 'enroll'; code: string; issuer?: string }
  | { kind: 'qr'; link: string }
  | { kind: 'invalid'; message: string };

export const APP_BASE = import.meta.env.BASE_URL; // '/authenticator/'

export function readLaunch(): Launch {
  const { pathname, href } = window.location;
  const page = pathname.startsWith(APP_BASE) ? pathname.slice(APP_BASE.length).replace(/\/$/, '') : '';
  let launch: Launch = { kind: 'none' };
  try {
    if (page === 'enroll') launch = { kind: 'enroll', ...parseEnrollmentInput(href) };
    else if (page === 'qr') {
      parseQrLink(href);
      launch = { kind: 'qr', link: href };
    }
  } catch (error) {
    launch = { kind: 'invalid', message: error instanceof Error ? error.message : String(error) };
  }
  if (page !== '' || window.location.hash) window.history.replaceState(null, '', APP_BASE);
  return launch;
}

/** Text typed or pasted by the user, or read from a QR code: a sign-in link, an enrollment link or a code. */
export function classifyInput(
  input: string,
): { kind: 'qr'; link: string } | { kind: 'enroll'; code: string; issuer?: string } {
  const text = input.trim();
  if (/^https?:\/\//i.test(text) && /[#?&]s=/.test(text)) {
    parseQrLink(text);
    return { kind: 'qr', link: text };
  }
  return { kind: 'enroll', ...parseEnrollmentInput(text) };
}
