// The one import of oidc-provider (lint refuses it anywhere else). oidc-provider 9 prints "Unsupported runtime"
// when it is loaded on Node.js 20; decision 016 records why 9.13 is used on Node 20.19+ all the same. That one
// known line is kept out of every start: it is filtered, word for word, while the package loads, and nothing
// else is. A changed wording, or any other warning, is printed as before.
//
// The import is dynamic so that it also runs after the filter in the server's bundle (esbuild hoists static
// imports of external packages above the bundle's own code).
import type * as OidcProvider from 'oidc-provider';

export const UNSUPPORTED_RUNTIME_WARNING =
  'oidc-provider WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release.';

// The warning may be coloured when stderr is a terminal.
// eslint-disable-next-line no-control-regex
const withoutColour = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** True for exactly the known runtime warning (coloured or not). */
export const isUnsupportedRuntimeWarning = (args: unknown[]) =>
  args.length === 1 && typeof args[0] === 'string' && withoutColour(args[0]) === UNSUPPORTED_RUNTIME_WARNING;

const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (!isUnsupportedRuntimeWarning(args)) warn(...args);
};
let oidc: typeof OidcProvider;
try {
  oidc = await import('oidc-provider');
} finally {
  console.warn = warn;
}

export const Provider = oidc.Provider;
export type Provider = OidcProvider.Provider;
export const errors = oidc.errors;
export const ExternalSigningKey = oidc.ExternalSigningKey;
export type ExternalSigningKey = OidcProvider.ExternalSigningKey;
export type {
  Account,
  AccessTokenLike,
  Adapter,
  AdapterPayload,
  BackchannelAuthenticationRequest,
  ClientLike,
  KoaContextWithOIDC,
} from 'oidc-provider';
