import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * The parts of oidc-provider (v8 ships no types) and of its Koa context that provider.ts configures and reads:
 * declared here, so provider.ts reads as the configuration it is.
 */

/** The few parts of oidc-provider's Provider the service uses (the package ships no types for v8). */
export interface OidcProviderInstance {
  proxy: boolean;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
  Grant: GrantConstructor;
  Client: { prototype: { compareClientSecret(this: { clientSecret: string }, actual: string): boolean } };
  on(event: string, listener: (...args: any[]) => void): void; // eslint-disable-line @typescript-eslint/no-explicit-any
  use(middleware: (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>): void;
}

export interface CheckConstructor {
  new (reason: string, description: string, check: (ctx: ProviderContext) => Promise<boolean> | boolean): unknown;
  REQUEST_PROMPT: boolean;
  NO_NEED_TO_PROMPT: boolean;
}

/** What the service takes from oidc-provider's module. */
export interface OidcProviderModule {
  default: new (issuer: string, configuration: Record<string, unknown>) => OidcProviderInstance;
  errors: { InvalidGrant: new (description: string) => Error; InvalidTarget: new () => Error };
  interactionPolicy: { Check: CheckConstructor; base(): { get(name: string): { checks: { add(check: unknown): void } } } };
}

export interface InteractionDetails {
  uid: string;
  iat?: number;
  params: Record<string, string | undefined>;
  prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
  session?: { accountId?: string };
  grantId?: string;
}

export interface GrantInstance {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}

export interface GrantConstructor {
  new (options: { accountId: string; clientId: string }): GrantInstance;
  find(id: string): Promise<GrantInstance | undefined>;
}

export type Account = { accountId: string; claims(): Promise<Record<string, unknown>> };

/** The parts of oidc-provider's Koa context the configuration below reads. */
export interface ProviderContext {
  path: string;
  method: string;
  status: number;
  body: unknown;
  ip: string;
  get(header: string): string;
  set(header: string, value: string): void;
  type: string;
  redirect(url: string): void;
  cookies: { get(name: string, options?: { signed: boolean }): string | undefined };
  response: { get(header: string): string };
  oidc: {
    route?: string;
    params?: Record<string, unknown>;
    client?: { clientId: string; clientAuthMethod: string };
    session?: { accountId?: string; grantIdFor(clientId: string): string | undefined; destroy?(): Promise<void> };
    entities?: { RefreshToken?: { grantId?: string }; IdTokenHint?: { payload: Record<string, unknown> } };
    result?: { login?: unknown };
  };
}

/** A token oidc-provider is about to sign as an RFC 9068 JWT, and the payload it will sign. */
export interface StructuredAccessToken {
  token: { jti: string; kind: string; grantId?: string; extra?: unknown; constructor: { IN_PAYLOAD: string[] } } & Record<string, unknown>;
  payload: { iat: number; exp: number } & Record<string, unknown>;
}
