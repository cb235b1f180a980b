import crypto from 'node:crypto';
import { UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';
import type { Models, Role, User } from '../../models';
import type { RequestContext } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import { transactionWithRetry } from '../../db/transaction-retry';
import type { ActivityService } from '../operations/activity.service';
import type { UserService } from '../accounts/user.service';
import type { SecurityNotices } from '../security/security-notices';
import type { EmailVerificationService } from '../accounts/email-verification.service';
import { domainOf, providerName, type SsoProviderRecord } from './sso-providers.service';

/** What a provider asserted about the person signing in (saml.strategy's SsoIdentity, and the OIDC ID token's claims). */
export interface SsoIdentity {
  subject: string;
  email: string | null;
  firstName?: string;
  lastName?: string;
  /** OIDC `email_verified`: false only when the provider says so (SAML asserts none). */
  emailVerified?: boolean;
}

/** Why a sign-in through a provider was refused (the `sso.refused` activity row's reason). */
export type SsoRefusal = 'no_email' | 'unverified_email' | 'wrong_domain' | 'no_account' | 'inactive' | 'already_linked' | 'unavailable' | 'failed';

export type SsoOutcome = { ok: true; user: User; created: boolean; linked: boolean } | { ok: false; reason: SsoRefusal; user: User | null };

const NAME_PART_MAX = 100;
const RACE_RETRIES = 2;

function namePart(value: string | undefined): string | null {
  return value ? value.trim().slice(0, NAME_PART_MAX) || null : null;
}

/**
 * The accounts rules of CONTRACT 15: a sign-in is keyed by (provider, subject); the first one links an account
 * with the asserted address (the provider must own its domain: it never vouches for another organisation's
 * addresses), proving it (the squatter rule of CONTRACT 12 through the verification service), or makes one when
 * the provider auto-creates. Deactivated users never sign in.
 */
export function createSsoAccountService(deps: {
  sequelize: Sequelize;
  models: Models;
  users: Pick<UserService, 'createUser'>;
  activity: ActivityService;
  notices: Pick<SecurityNotices, 'send'>;
  verification: Pick<EmailVerificationService, 'proven'>;
}) {
  const { sequelize, models, users, activity, notices, verification } = deps;
  const withProfile = { include: [{ model: models.UserProfile, as: 'profile' }] };

  function newLink(userId: string, provider: string, identity: SsoIdentity, transaction: Transaction) {
    return models.OAuthAccount.create({ id: crypto.randomUUID(), userId, provider, providerAccountId: identity.subject, email: identity.email }, { transaction });
  }

  async function linkOrCreate(record: SsoProviderRecord, identity: SsoIdentity, context: RequestContext): Promise<SsoOutcome> {
    const { row } = record;
    const provider = providerName(row.slug);
    if (!identity.email) return { ok: false, reason: 'no_email', user: null };
    if (identity.emailVerified === false) return { ok: false, reason: 'unverified_email', user: null };
    const email = identity.email.trim().toLowerCase();
    if (!record.domains.includes(domainOf(email))) return { ok: false, reason: 'wrong_domain', user: null };

    const existing = await models.User.findOne({ where: { email }, ...withProfile });
    if (existing) {
      if (!existing.active) return { ok: false, reason: 'inactive', user: existing };
      const refused = await transactionWithRetry(sequelize, async (transaction) => {
        // One identity per provider and account: a second subject for the same address is someone else's.
        if (await models.OAuthAccount.findOne({ where: { userId: existing.id, provider }, transaction })) return true;
        await newLink(existing.id, provider, { ...identity, email }, transaction);
        return false;
      });
      if (refused) return { ok: false, reason: 'already_linked', user: existing };
      await recordLinked(existing, record, identity, 'existing_account', context);
      return { ok: true, user: existing, created: false, linked: true };
    }
    if (!row.autoCreate) return { ok: false, reason: 'no_account', user: null };
    const created = await users.createUser(
      { email, firstName: namePart(identity.firstName), lastName: namePart(identity.lastName), role: row.defaultRole as Role },
      // The user and their link are one transaction: no account without the identity that made it.
      { afterInsert: async (user, transaction) => void (await newLink(user.id, provider, { ...identity, email }, transaction)) },
    );
    const user = (await models.User.findByPk(created.id, withProfile)) as User;
    await recordLinked(user, record, identity, 'new_account', context);
    return { ok: true, user, created: true, linked: true };
  }

  /** The activity row of a link, and for an account that existed before, the owner's notice (CONTRACT 18: a credential added). */
  async function recordLinked(user: User, record: SsoProviderRecord, identity: SsoIdentity, via: 'existing_account' | 'new_account', context: RequestContext): Promise<void> {
    await activity.record({ action: 'sso.account_linked', userId: user.id, email: user.email, details: { provider: record.row.slug, subject: identity.subject, via } }, context);
    if (via === 'new_account') return;
    notices.send(user.email, {
      subject: `${record.row.name} single sign-on linked to your account`,
      summary: `Your account (${user.email}) was linked to the single sign-on provider ${record.row.slug}: it can now sign in as you.`,
      facts: [`Identity at the provider: ${identity.subject}`],
      context,
      advice: 'If you did not expect this, tell your administrator: links to single sign-on are removed by an administrator.',
    });
  }

  async function decide(record: SsoProviderRecord, identity: SsoIdentity, context: RequestContext): Promise<SsoOutcome> {
    const link = await models.OAuthAccount.findOne({ where: { provider: providerName(record.row.slug), providerAccountId: identity.subject } });
    const linkedUser = link ? await models.User.findByPk(link.userId, withProfile) : null;
    if (!link || !linkedUser) return linkOrCreate(record, identity, context);
    if (!linkedUser.active) return { ok: false, reason: 'inactive', user: linkedUser };
    return { ok: true, user: linkedUser, created: false, linked: false };
  }

  /**
   * A sign-in's outcome. Parallel first sign-ins of one person race on the unique keys (the link, the email):
   * the loser decides again and sees the winner's rows. A sign-in whose address is the account's own proves it.
   */
  async function signIn(record: SsoProviderRecord, identity: SsoIdentity, context: RequestContext): Promise<SsoOutcome> {
    for (let attempt = 0; ; attempt++) {
      let outcome: SsoOutcome;
      try {
        outcome = await decide(record, identity, context);
      } catch (err) {
        const race = err instanceof UniqueConstraintError || (err instanceof AppError && err.status === 409);
        if (attempt >= RACE_RETRIES || !race) throw err;
        continue;
      }
      if (!outcome.ok || outcome.user.emailVerifiedAt || !outcome.linked) return outcome;
      const proving = { provider: providerName(record.row.slug), providerAccountId: identity.subject };
      const { changed } = await verification.proven(outcome.user, providerName(record.row.slug), context, { linkedAccount: proving });
      return changed ? { ...outcome, user: (await models.User.findByPk(outcome.user.id, withProfile)) ?? outcome.user } : outcome;
    }
  }

  /** The refusal's activity row (the user reads only the notice code). */
  async function refused(slug: string, reason: SsoRefusal, user: { id: string; email: string } | null, context: RequestContext): Promise<void> {
    await activity.record({ action: 'sso.refused', userId: user?.id ?? null, email: user?.email ?? null, details: { provider: slug, reason } }, context);
  }

  return { signIn, refused };
}

export type SsoAccountService = ReturnType<typeof createSsoAccountService>;
