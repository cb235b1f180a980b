import type { Sequelize, Transaction } from 'sequelize';
import type { Models, User } from '../../../models';
import type { RequestContext } from '../../../http/request-context';
import { AppError } from '../../../http/app-error';
import type { SecurityNotices } from '../security-notices';
import { CREDENTIAL_KIND_NAMES, type CredentialKind, type CredentialKindName, type Keep } from './credential-kinds';

export const CREDENTIAL_SET_MESSAGES = {
  verifyFirst: 'Verify your email address first',
} as const;

/** Self-registered and not yet proven: the one meaning of "unverified" in CONTRACT 18 (and the squatter rule's). */
export function isUnverified(user: { selfRegistered: boolean; emailVerifiedAt: Date | null }): boolean {
  return user.selfRegistered && !user.emailVerifiedAt;
}

/** What the owner is told after an event: the notice's words; `listLeft` adds what they still hold, to review. */
interface EventNotice {
  subject: string;
  summary: (email: string) => string;
  advice: string;
  listLeft: boolean;
}

interface CredentialEvent {
  ends: readonly CredentialKindName[];
  notice?: EventNotice;
}

/** The kinds a notice lists as "still on your account" (the ones an event like a reset leaves in place). */
const LISTED_KINDS: readonly CredentialKindName[] = ['api-keys', 'passkeys', 'linked-accounts'];

/**
 * CONTRACT 18's table: what each event ends, and what the owner is told. Every path where one of these happens
 * calls `credentialSet.end(event, …)`; nothing else ends credentials in bulk, so a kind added to the registry
 * is covered by every event at once. docs/security.md carries the same table.
 */
export const CREDENTIAL_EVENTS = {
  /** The squatter rule: a self-registered, unproven account's credentials were set by whoever signed it up. */
  'address-proven-on-unverified': { ends: ['password', 'sessions', 'oidc-grants', 'api-keys', 'passkeys', 'second-factors', 'linked-accounts'] },
  'password-reset': {
    ends: ['sessions', 'oidc-grants', 'pending-enrolment'],
    notice: {
      subject: 'Your password was reset',
      summary: (email) => `The password of your account (${email}) was reset with a link mailed to this address, and every session was signed out.`,
      advice: 'If this was not you, someone can read your mail: secure your mailbox, then reset your password again and remove anything below you do not know.',
      listLeft: true,
    },
  },
  'sign-out-everywhere': { ends: ['sessions', 'oidc-grants'] },
  /** The session that changed the password stays signed in (the caller keeps it). */
  'password-change': {
    ends: ['sessions', 'oidc-grants'],
    notice: {
      subject: 'Your password was changed',
      summary: (email) => `The password of your account (${email}) was changed, and every other sign-in of yours was ended.`,
      advice: 'If this was not you, reset your password at once with "Forgot your password?" on the sign-in page, remove anything below you do not know, and contact an administrator.',
      listLeft: true,
    },
  },
  'role-change': { ends: ['sessions', 'oidc-grants'] },
  /** A reactivated account has none of the keys made before. */
  deactivation: { ends: ['sessions', 'oidc-grants', 'api-keys'] },
  'admin-two-factor-reset': {
    ends: ['second-factors', 'sessions', 'oidc-grants'],
    notice: {
      subject: 'Two-factor authentication reset by an administrator',
      summary: (email) => `An administrator removed the two-factor authentication of your account (${email}) and signed you out everywhere. Set it up again from your profile.`,
      advice: 'If you did not ask for this, change your password at once, review your sessions on your profile, and contact an administrator.',
      listLeft: false,
    },
  },
  deletion: { ends: CREDENTIAL_KIND_NAMES },
} as const satisfies Record<string, CredentialEvent>;

export type CredentialEventName = keyof typeof CREDENTIAL_EVENTS;

export interface EndOptions {
  /** The caller's transaction (the write that causes the event); otherwise the event runs in one of its own. */
  transaction?: Transaction;
  keep?: Keep;
  /** Where the notice goes and the request it came from; required for events that notify. */
  owner?: { email: string; context: RequestContext };
}

/**
 * One account, one set of credentials (CONTRACT 18): the registry of kinds, the one function that applies the
 * table of events, and the rule that an unverified account adds no durable credential.
 */
export function createCredentialSet(deps: {
  sequelize: Sequelize;
  models: Models;
  kinds: Readonly<Record<CredentialKindName, CredentialKind>>;
  notices: Pick<SecurityNotices, 'send'>;
}) {
  const { sequelize, models, kinds, notices } = deps;

  /** What the owner still holds of the kinds a notice lists, one line each. */
  async function credentialsLeft(userId: string): Promise<string[]> {
    const lines = await Promise.all(LISTED_KINDS.map((name) => kinds[name].describe?.(userId) ?? Promise.resolve([])));
    return lines.flat();
  }

  async function notify(userId: string, notice: EventNotice, owner: NonNullable<EndOptions['owner']>): Promise<void> {
    const left = notice.listLeft ? await credentialsLeft(userId) : [];
    notices.send(owner.email, {
      subject: notice.subject,
      summary: notice.summary(owner.email),
      context: owner.context,
      list: { heading: 'Still on your account (remove any you do not know on your profile):', items: left },
      advice: notice.advice,
    });
  }

  /**
   * Applies one row of the table to the user: every kind it names ends (but what `keep` names), in the caller's
   * transaction or one of its own; the notice goes after the commit. Answers how many of each kind ended.
   */
  async function end(event: CredentialEventName, userId: string, options: EndOptions = {}): Promise<Partial<Record<CredentialKindName, number>>> {
    const row: CredentialEvent = CREDENTIAL_EVENTS[event];
    const run = async (transaction: Transaction) => {
      const ended: Partial<Record<CredentialKindName, number>> = {};
      for (const name of row.ends) ended[name] = await kinds[name].end(userId, transaction, options.keep ?? {});
      const { notice } = row;
      if (notice && options.owner) {
        const owner = options.owner;
        transaction.afterCommit(() => notify(userId, notice, owner).catch(() => undefined));
      }
      return ended;
    };
    return options.transaction ? run(options.transaction) : sequelize.transaction(run);
  }

  /**
   * Deletes the account inside the caller's transaction (which holds its row lock): every credential kind ends
   * (the table's "deletion"), codes and sign-in links mailed to the address go, then the row (its profile,
   * email links and reset links cascade).
   */
  async function removeAccount(user: User, transaction: Transaction): Promise<void> {
    await end('deletion', user.id, { transaction });
    await models.OtpCode.destroy({ where: { userEmail: user.email }, transaction });
    await models.AuthVerification.destroy({ where: { identifier: user.email }, transaction });
    await user.destroy({ transaction });
  }

  /** Refuses (403) adding a durable credential (API key, passkey, linked provider, second factor) to an unverified account. */
  async function assertMayAdd(userId: string): Promise<void> {
    const user = await models.User.findByPk(userId, { attributes: ['id', 'selfRegistered', 'emailVerifiedAt'] });
    if (user && isUnverified(user)) throw AppError.forbidden(CREDENTIAL_SET_MESSAGES.verifyFirst);
  }

  return { end, removeAccount, credentialsLeft, assertMayAdd, kinds };
}

export type CredentialSet = ReturnType<typeof createCredentialSet>;
