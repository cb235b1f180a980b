import type { Request } from 'express';
import type passport from 'passport';
import { Strategy } from 'passport-strategy';
import { requestContext } from '../../http/request-context';
import { toAuthUser } from '../../sessions/auth-user';
import { ssoRefusal } from './oidc.strategy';
import type { SsoProviderService } from '../../services/sso/sso-providers.service';
import type { SsoAccountService, SsoIdentity } from '../../services/sso/sso-accounts.service';

/**
 * SAML sign-in (CONTRACT 15) as one Passport strategy for the route lines: the protocol strategy (`sso-saml`,
 * saml.strategy.ts) redirects to the IdP or judges the Response and names an identity; this one applies the
 * accounts rules to that identity and hands the user to the session step, or refuses like every SSO refusal
 * (302 /auth/login?notice=…, an `sso.refused` row, no session).
 */
export class SsoSamlSignInStrategy extends Strategy {
  readonly name = 'sso-saml-sign-in';

  constructor(
    private readonly deps: {
      saml: passport.Strategy;
      providers: Pick<SsoProviderService, 'bySlug'>;
      accounts: Pick<SsoAccountService, 'signIn'>;
    },
  ) {
    super();
  }

  override authenticate(req: Request, options?: unknown): void {
    const slug = String(req.params.slug);
    const refuse = (reason: Parameters<typeof ssoRefusal>[1], detail: string | null = null, user: { id: string; email: string } | null = null) =>
      this.fail(ssoRefusal(slug, reason, detail, user), 302);
    // The protocol strategy with this request's outcomes (as Passport itself augments a strategy per request).
    const protocol = Object.create(this.deps.saml) as Strategy;
    protocol.redirect = (url: string, status?: number) => this.redirect(url, status);
    protocol.error = (err: Error) => this.error(err);
    protocol.pass = () => this.pass();
    protocol.fail = (challenge?: unknown) => {
      const message = typeof challenge === 'object' && challenge !== null ? (challenge as { message?: unknown }).message : challenge;
      if (message === 'unknown_provider') return refuse('unavailable');
      refuse('failed', typeof message === 'string' ? message.slice(0, 120) : 'saml_refused');
    };
    protocol.success = (identity: SsoIdentity) => {
      this.signIn(req, slug, identity, refuse).catch((err: unknown) => this.error(err as Error));
    };
    protocol.authenticate(req, options);
  }

  private async signIn(req: Request, slug: string, identity: SsoIdentity, refuse: (reason: Parameters<typeof ssoRefusal>[1], detail?: string | null, user?: { id: string; email: string } | null) => void): Promise<void> {
    const record = await this.deps.providers.bySlug(slug);
    if (!record || record.row.protocol !== 'saml') return refuse('unavailable');
    const outcome = await this.deps.accounts.signIn(record, identity, requestContext(req));
    if (!outcome.ok) return refuse(outcome.reason, null, outcome.user);
    const details = { provider: slug, ...(outcome.created ? { created: true, role: outcome.user.role } : {}), ...(outcome.linked ? { linked: true } : {}) };
    // No landing page rides along: the AuthnRequest carries no RelayState, so a SAML sign-in lands on the admin home.
    this.success(toAuthUser(outcome.user), { method: 'sso', details });
  }
}
