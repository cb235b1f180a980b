import crypto from 'node:crypto';
import { UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';
import type { Models, User } from '../../models';
import type { RequestContext } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import { isUnverified } from '../security/credential-set/credential-set';
import { transactionWithRetry } from '../../db/transaction-retry';
import { type OAuthIdentity, type OAuthProviders } from '../../oauth/oauth-providers';
import { PROVIDER_LABELS } from '../../models/oauth-provider-names';
import type { OAuthProviderName } from '../../models/oauth-provider-names';
import type { ActivityService } from '../operations/activity.service';
import type { UserService } from '../accounts/user.service';
import type { SecurityNotices } from '../security/security-notices';
import type { EmailVerificationService } from '../accounts/email-verification.service';

/** Why a callback did not sign in or link (activity details; `OAUTH_OUTCOME_MESSAGES` has what the user reads). */
export type OAuthRefusal =
  | 'no_email'
  | 'unverified_email'
  | 'registration_disabled'
  | 'inactive'
  | 'provider_already_linked'
  | 'linked_to_other'
  | 'user_unavailable'
  | 'link_ended';

export const OAUTH_OUTCOME_MESSAGES: Readonly<Record<OAuthRefusal, (label: string) => string>> = {
  no_email: (label) => `${label} did not share an email address, so we cannot sign you in with it.`,
  unverified_email: (label) =>
    `Your ${label} email address is not verified. Verify it at ${label}, or sign in another way and link ${label} from your profile.`,
  registration_disabled: () => 'Registration is currently disabled',
  inactive: () => 'This account is not active',
  provider_already_linked: (label) => `Another ${label} account is already linked to this account. Unlink it first.`,
  linked_to_other: (label) => `This ${label} account is already linked to another user.`,
  user_unavailable: () => 'Your account is not active',
  link_ended: (label) => `Your sessions were ended after this ${label} link was started. Sign in and link ${label} again.`,
};

export const OAUTH_SERVICE_MESSAGES = {
  lastMethod: 'Cannot unlink the only authentication method. Set a password first.',
  notLinked: (label: string) => `No ${label} account is linked`,
  linked: (label: string) => `${label} account linked`,
  unlinked: (label: string) => `${label} account unlinked`,
} as const;

export type OAuthOutcome = { ok: true; user: User; created: boolean; linked: boolean } | { ok: false; reason: OAuthRefusal; user: User | null };

/** A linked account as `GET /auth/oauth/accounts` answers it (CONTRACT 4). */
export interface LinkedAccount {
  provider: string;
  providerAccountId: string;
  email: string | null;
  linkedAt: Date;
}

const NAME_PART_MAX = 100;
/** A concurrent callback for the same person won a unique key: deciding once more sees its row. */
const RACE_RETRIES = 2;

function splitName(name: string | null): { firstName: string | null; lastName: string | null } {
  if (!name) return { firstName: null, lastName: null };
  const [first, ...rest] = name.split(/\s+/);
  return { firstName: first.slice(0, NAME_PART_MAX) || null, lastName: rest.join(' ').slice(0, NAME_PART_MAX) || null };
}

function isRace(err: unknown): boolean {
  return err instanceof UniqueConstraintError || (err instanceof AppError && err.status === 409);
}

/**
 * OAuth accounts: the callback outcome rules of SPEC 4.3 (with CONTRACT 4's hardening), linking to the
 * signed-in user, unlinking under the last-method rule, and the lists the API and the profile page show.
 * Identity is the pair (provider, provider account id); an email alone never signs anyone in.
 */
export function createOAuthService(deps: {
  sequelize: Sequelize;
  models: Models;
  users: Pick<UserService, 'signUp'>;
  activity: ActivityService;
  providers: Pick<OAuthProviders, 'enabled' | 'known'>;
  notices: Pick<SecurityNotices, 'send'>;
  /** A provider-verified address of the account proves it: verified, and a squatter's password cleared (CONTRACT 12). */
  verification: Pick<EmailVerificationService, 'proven'>;
}) {
  const { sequelize, models, users, activity, providers, notices } = deps;
  const withProfile = { include: [{ model: models.UserProfile, as: 'profile' }] };

  async function userById(id: string, transaction?: Transaction): Promise<User | null> {
    return models.User.findByPk(id, { ...withProfile, transaction });
  }

  function newLink(userId: string, identity: OAuthIdentity, transaction: Transaction) {
    return models.OAuthAccount.create(
      { id: crypto.randomUUID(), userId, provider: identity.provider, providerAccountId: identity.providerAccountId, email: identity.email },
      { transaction },
    );
  }

  /**
   * The activity row of a new link and, when it joined an account that existed before, a notice to its owner
   * naming the provider account and every account now linked: a link someone else made (a stolen session, a
   * provider address) must not survive unseen a logout-all or password reset, which end sessions, not links.
   */
  async function recordLinked(user: User, identity: OAuthIdentity, via: string, context: RequestContext): Promise<void> {
    const details = { provider: identity.provider, providerAccountId: identity.providerAccountId, via };
    await activity.record({ action: 'oauth.linked', userId: user.id, email: user.email, details }, context);
    if (via === 'new_account') return;
    const label = PROVIDER_LABELS[identity.provider] ?? identity.provider;
    const linked = await accounts(user.id);
    notices.send(user.email, {
      subject: `${label} account linked to your account`,
      summary: `A ${label} account was linked to your account (${user.email}): it can now sign in as you.`,
      facts: [
        `${label} account: ${identity.email ?? identity.providerAccountId} (id ${identity.providerAccountId})`,
      ],
      context,
      list: {
        heading: 'Accounts linked to yours now:',
        items: linked.map((account) => `${PROVIDER_LABELS[account.provider as OAuthProviderName] ?? account.provider}: ${account.email ?? account.providerAccountId}`),
      },
      advice:
        'If this was not you, open your profile, Unlink the accounts you do not know, change your password and sign out everywhere: ' +
        'signing out and changing your password do not remove linked accounts.',
    });
  }

  /** Rules 2 and 3, after rule 1 found no link: a verified matching email links; else a new account. */
  async function linkOrCreate(identity: OAuthIdentity, context: RequestContext): Promise<OAuthOutcome> {
    if (!identity.email) return { ok: false, reason: 'no_email', user: null };
    // Unverified addresses neither link (takeover) nor create accounts (a squatted account would later
    // capture the real owner's verified sign-in through rule 2).
    if (!identity.emailVerified) return { ok: false, reason: 'unverified_email', user: null };
    const email = identity.email;

    const existing = await models.User.findOne({ where: { email }, ...withProfile });
    if (existing) {
      if (!existing.active) return { ok: false, reason: 'inactive', user: existing };
      const refused = await transactionWithRetry(sequelize, async (transaction) => {
        const other = await models.OAuthAccount.findOne({ where: { userId: existing.id, provider: identity.provider }, transaction });
        if (other) return true;
        await newLink(existing.id, identity, transaction);
        return false;
      });
      if (refused) return { ok: false, reason: 'provider_already_linked', user: existing };
      await recordLinked(existing, identity, 'verified_email', context);
      return { ok: true, user: existing, created: false, linked: true };
    }

    let created: User;
    try {
      created = await users.signUp(
        { email, ...splitName(identity.name), avatarUrl: identity.avatarUrl },
        {
          // The user and their link are one transaction: no account without its link, no link without its account.
          afterInsert: async (user, transaction) => void (await newLink(user.id, identity, transaction)),
        },
      );
    } catch (err) {
      if (err instanceof AppError && err.status === 403) return { ok: false, reason: 'registration_disabled', user: null };
      throw err;
    }
    const user = (await userById(created.id)) as User;
    await recordLinked(user, identity, 'new_account', context);
    return { ok: true, user, created: true, linked: true };
  }

  async function decide(identity: OAuthIdentity, context: RequestContext): Promise<OAuthOutcome> {
    const link = await models.OAuthAccount.findOne({ where: { provider: identity.provider, providerAccountId: identity.providerAccountId } });
    const linkedUser = link ? await userById(link.userId) : null;
    if (!link || !linkedUser) return linkOrCreate(identity, context);
    if (!linkedUser.active) return { ok: false, reason: 'inactive', user: linkedUser };
    if (identity.email && identity.email !== link.email) await link.update({ email: identity.email });
    return { ok: true, user: linkedUser, created: false, linked: false };
  }

  /**
   * A sign-in callback's outcome, rules in order: an existing link signs its user in; else a
   * provider-verified email of an account links and signs in; else a new viewer (the first user ever:
   * admin) while registration is allowed. A deactivated user never signs in.
   */
  async function signIn(identity: OAuthIdentity, context: RequestContext): Promise<OAuthOutcome> {
    for (let attempt = 0; ; attempt++) {
      let outcome: OAuthOutcome;
      try {
        outcome = await decide(identity, context);
      } catch (err) {
        if (attempt >= RACE_RETRIES || !isRace(err)) throw err;
        continue;
      }
      return addressProven(outcome, identity, context);
    }
  }

  /**
   * A sign-in whose provider vouches for the account's own address proves it (CONTRACT 12): the account is
   * verified, and an unverified one loses a password someone else may have set. The user is read again
   * after a change (the token epoch moved on).
   */
  async function addressProven(outcome: OAuthOutcome, identity: OAuthIdentity, context: RequestContext): Promise<OAuthOutcome> {
    if (!outcome.ok || outcome.user.emailVerifiedAt || !identity.emailVerified || identity.email !== outcome.user.email) return outcome;
    const proving = { provider: identity.provider, providerAccountId: identity.providerAccountId };
    const { changed } = await deps.verification.proven(outcome.user, identity.provider, context, { linkedAccount: proving });
    return changed ? { ...outcome, user: (await userById(outcome.user.id)) ?? outcome.user } : outcome;
  }

  /**
   * A linking callback: the provider account goes to the user who started the flow, or is refused. The
   * user must still be on the token epoch the flow started under (an unknown epoch counts as ended).
   */
  async function link(starter: { userId: string; tokenEpoch: number | null | undefined }, identity: OAuthIdentity, context: RequestContext): Promise<OAuthOutcome> {
    const { userId } = starter;
    const outcome = await transactionWithRetry(
      sequelize,
      async (transaction): Promise<OAuthOutcome> => {
        const user = await models.User.findByPk(userId, { transaction, lock: transaction.LOCK.UPDATE });
        // An unverified account adds no linked provider (CONTRACT 18): the flow began before the rule, or around it.
        if (!user || !user.active || isUnverified(user)) return { ok: false, reason: 'user_unavailable', user };
        if (user.tokenEpoch !== starter.tokenEpoch) return { ok: false, reason: 'link_ended', user };
        const where = { provider: identity.provider, providerAccountId: identity.providerAccountId };
        const existing = await models.OAuthAccount.findOne({ where, transaction });
        if (existing) {
          if (existing.userId !== userId) return { ok: false, reason: 'linked_to_other', user };
          return { ok: true, user, created: false, linked: false };
        }
        if (await models.OAuthAccount.findOne({ where: { userId, provider: identity.provider }, transaction })) {
          return { ok: false, reason: 'provider_already_linked', user };
        }
        await newLink(userId, identity, transaction);
        return { ok: true, user, created: false, linked: true };
      },
      { retryOnUniqueViolation: true },
    );
    if (!outcome.ok) return outcome;
    const user = (await userById(userId)) as User;
    if (outcome.linked) await recordLinked(user, identity, 'link', context);
    return { ...outcome, user };
  }

  /**
   * Removes the user's link to a provider. 404 when not linked; 400 when it is the only way left to
   * sign in (no password, one link), decided under the user's row lock so two parallel unlinks of the
   * last two links cannot both succeed.
   */
  async function unlink(userId: string, providerName: string, context: RequestContext): Promise<void> {
    const provider = providers.known(providerName);
    const label = PROVIDER_LABELS[provider];
    const removed = await transactionWithRetry(sequelize, async (transaction) => {
      const owner = await models.User.findByPk(userId, { transaction, lock: transaction.LOCK.UPDATE });
      const links = await models.OAuthAccount.findAll({ where: { userId }, transaction });
      const target = links.find((row) => row.provider === provider);
      if (!owner || !target) throw AppError.notFound(OAUTH_SERVICE_MESSAGES.notLinked(label));
      if (!owner.passwordHash && links.length === 1) throw AppError.badRequest(OAUTH_SERVICE_MESSAGES.lastMethod);
      await target.destroy({ transaction });
      return { owner, target };
    });
    const details = { provider, providerAccountId: removed.target.providerAccountId };
    await activity.record({ action: 'oauth.unlinked', userId, email: removed.owner.email, details }, context);
  }

  /** The user's linked accounts (CONTRACT 4 `GET /auth/oauth/accounts`), oldest first. */
  async function accounts(userId: string): Promise<LinkedAccount[]> {
    const rows = await models.OAuthAccount.findAll({ where: { userId }, order: [['createdAt', 'ASC'], ['provider', 'ASC']] });
    return rows.map((row) => ({ provider: row.provider, providerAccountId: row.providerAccountId, email: row.email, linkedAt: row.createdAt }));
  }

  /** What the profile page shows: linked accounts with their labels, and enabled providers not linked yet. */
  async function linkedAccountsView(userId: string) {
    const linked = await accounts(userId);
    const enabled = await providers.enabled();
    return {
      accounts: linked.map(({ provider, email, linkedAt }) => ({
        provider,
        label: PROVIDER_LABELS[provider as OAuthProviderName] ?? provider,
        email,
        linkedAt,
      })),
      linkable: enabled.filter((candidate) => !linked.some((account) => account.provider === candidate.name)),
    };
  }

  return { signIn, link, unlink, accounts, linkedAccountsView };
}

export type OAuthService = ReturnType<typeof createOAuthService>;
