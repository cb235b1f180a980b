import type { BaseClient, Issuer, IssuerMetadata } from 'openid-client';
import { AppError } from '../../http/app-error';
import { outboundUrlRefusal, publicOnlyConnection } from '../../http/outbound-url';
import { openidClient } from './sso-libraries';

const DISCOVERY_TIMEOUT_MS = 5000;

export const OIDC_ISSUER_MESSAGES = {
  undiscoverable: 'could not be discovered (no OpenID Connect configuration at <issuer>/.well-known/openid-configuration)',
  mismatch: 'answered with another issuer identifier than the one given',
  noCodeFlow: 'does not offer the authorization code flow',
} as const;

type HttpOptionsHook = (url: URL, options: Record<string, unknown>) => Record<string, unknown>;

/**
 * openid-client's per-object HTTP options: a timeout always, and unless ALLOW_PRIVATE_OUTBOUND, a connection that
 * reaches only public addresses, judged when it is made (a name re-pointed after the save gains nothing).
 */
function httpOptions(allowPrivate: boolean): HttpOptionsHook {
  return (url, options) => ({ ...options, timeout: DISCOVERY_TIMEOUT_MS, ...(allowPrivate ? {} : publicOnlyConnection(url)) });
}

/** The issuer identifier as an admin may write it: the trailing slash is not part of the comparison. */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/**
 * Discovers an OpenID Connect issuer under the outbound URL rules (CONTRACT 15): its metadata, checked to name
 * the same issuer and to offer the code flow. Refusals are 400s naming `oidc.issuer`; nothing from the remote
 * answer is quoted back.
 */
export async function discoverIssuer(issuerUrl: string, allowPrivate: boolean): Promise<Issuer<BaseClient>> {
  const refuse = (message: string) => AppError.validation({ 'oidc.issuer': message });
  if (!allowPrivate) {
    const refusal = await outboundUrlRefusal(issuerUrl);
    if (refusal) throw refuse(refusal);
  }
  const { Issuer, custom } = openidClient();
  const hook = httpOptions(allowPrivate);
  let issuer: Issuer<BaseClient>;
  try {
    // `discover` fetches with the HTTP options of whatever it is called on; the Issuer it returns gets them below.
    issuer = await Issuer.discover.call({ [custom.http_options]: hook } as unknown as typeof Issuer, issuerUrl);
  } catch {
    throw refuse(OIDC_ISSUER_MESSAGES.undiscoverable);
  }
  const metadata: IssuerMetadata = issuer.metadata;
  if (!sameIssuer(metadata.issuer, issuerUrl)) throw refuse(OIDC_ISSUER_MESSAGES.mismatch);
  const responseTypes = metadata.response_types_supported as string[] | undefined;
  if (!metadata.authorization_endpoint || !metadata.token_endpoint || (responseTypes && !responseTypes.includes('code'))) throw refuse(OIDC_ISSUER_MESSAGES.noCodeFlow);
  (issuer as unknown as Record<symbol, HttpOptionsHook>)[custom.http_options] = hook;
  return issuer;
}

/** A confidential client of the issuer, whose own requests (code exchange) follow the same outbound rules. */
export function oidcClient(issuer: Issuer<BaseClient>, settings: { clientId: string; clientSecret: string; redirectUri: string }, allowPrivate: boolean): BaseClient {
  const client = new issuer.Client({
    client_id: settings.clientId,
    client_secret: settings.clientSecret,
    redirect_uris: [settings.redirectUri],
    response_types: ['code'],
  });
  (client as unknown as Record<symbol, HttpOptionsHook>)[openidClient().custom.http_options] = httpOptions(allowPrivate);
  return client;
}
