// The part of oidc-provider 9 that the auth server uses (the package ships no type declarations).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  import type { KeyObject } from 'node:crypto';

  export type AdapterPayload = Record<string, unknown> & {
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: number;
    exp?: number;
  };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface ClientLike {
    clientId: string;
    clientName?: string;
    clientAuthMethod: string;
    grantTypeAllowed(grantType: string): boolean;
  }

  export interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  export interface Account {
    accountId: string;
    claims(
      use: string,
      scope: string,
      claims: unknown,
      rejected: string[],
    ): Promise<AccountClaims> | AccountClaims;
  }

  export interface KoaContextWithOIDC {
    req: IncomingMessage;
    ip: string;
    path: string;
    method: string;
    body: unknown;
    status: number;
    state: Record<string, unknown>;
    set(field: string, value: string): void;
    oidc: {
      route?: string;
      params?: Record<string, unknown>;
      client?: ClientLike;
      body?: Record<string, unknown>;
      entities: Record<string, unknown>;
      account?: Account;
    };
  }

  export interface BackchannelAuthenticationRequest {
    jti: string;
    accountId: string;
    clientId: string;
    scope?: string;
    resource?: string | string[];
    params?: Record<string, unknown>;
    expiration: number;
    exp: number;
  }

  export interface AccessTokenLike {
    kind: string;
    accountId?: string;
    clientId?: string;
    aud?: string | string[];
    gty?: string;
    grantId?: string;
  }

  export interface GrantInstance {
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'opaque' | 'jwt';
    jwt?: { sign?: { alg: string; kid?: string } };
  }

  export type Configuration = Record<string, unknown>;

  /**
   * A signing key whose private half the provider never sees: it asks `sign` for the signature over a JWS's
   * signing input, and `keyObject` for the public key it publishes and verifies with
   * (`features.externalSigningSupport`).
   */
  export class ExternalSigningKey {
    kid: string;
    alg: string;
    keyObject(): KeyObject;
    sign(data: Buffer): Promise<Uint8Array>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    static get ctx(): KoaContextWithOIDC | undefined;
    readonly issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (ctx: KoaContextWithOIDC, error: unknown) => void): this;
    /** A Koa middleware around every route: what follows `next()` sees the answer the route made. */
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): this;
    backchannelResult(
      request: string | BackchannelAuthenticationRequest,
      result: GrantInstance | InstanceType<typeof errors.OIDCProviderError>,
      options?: { acr?: string; amr?: string[]; authTime?: number },
    ): Promise<void>;
    Grant: new (properties: { accountId: string; clientId: string }) => GrantInstance;
    BackchannelAuthenticationRequest: {
      new (properties: {
        accountId: string;
        client: ClientLike;
        claims: Record<string, unknown>;
        params: Record<string, unknown>;
        resource?: string;
        scope: string;
      }): BackchannelAuthenticationRequest & { save(): Promise<string> };
      find(
        id: string,
        options?: { ignoreExpiration?: boolean },
      ): Promise<BackchannelAuthenticationRequest | undefined>;
    };
    Client: {
      find(id: string): Promise<ClientLike | undefined>;
    };
  }

  export namespace errors {
    class OIDCProviderError extends Error {
      constructor(status: number, message: string);
      error: string;
      error_description?: string;
      status: number;
      statusCode: number;
    }
    class AccessDenied extends OIDCProviderError {
      constructor(description?: string);
    }
    class ExpiredToken extends OIDCProviderError {
      constructor(description?: string);
    }
    class InvalidGrant extends OIDCProviderError {
      constructor(description?: string);
    }
    class InvalidRequest extends OIDCProviderError {
      constructor(description?: string, code?: number);
    }
    class AuthorizationPending extends OIDCProviderError {
      constructor(description?: string);
    }
    class SlowDown extends OIDCProviderError {
      constructor(description?: string);
    }
    class InvalidBindingMessage extends OIDCProviderError {
      constructor(description?: string);
    }
    class InvalidTarget extends OIDCProviderError {
      constructor(description?: string);
    }
  }

  export default Provider;
}
