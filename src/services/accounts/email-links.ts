import crypto from 'node:crypto';
import type { Transaction } from 'sequelize';
import type { Models } from '../../models';
import type { EmailToken, EmailTokenPurpose } from '../../models/email-token';

/** CONTRACT 12: a verification or change link is valid for 24 hours. */
export const EMAIL_LINK_TTL_SECONDS = 24 * 60 * 60;
export const EMAIL_LINK_PATHS: Readonly<Record<EmailTokenPurpose, string>> = {
  verify: '/auth/verify-email',
  change: '/auth/email/confirm',
};

const TOKEN_BYTES = 32;
/** Longer than any token we hand out: anything past it is refused unread. */
export const EMAIL_LINK_TOKEN_MAX = 128;

/** A SHA-256 of the token under its purpose: a database copy holds no usable link, and a verify token never confirms a change. */
function hashToken(purpose: EmailTokenPurpose, token: string): string {
  return crypto.createHash('sha256').update(`email-link\0${purpose}\0${token}`).digest('hex');
}

/**
 * The single-use links of CONTRACT 12, in the password-reset pattern: 32 random bytes in the mail, their
 * hash in `email_tokens`, one live link per user and purpose (a new one voids the older), used once by
 * deleting the row (of parallel clicks exactly one deletes it).
 */
export function createEmailLinks(deps: { models: Models; baseUrl: string }) {
  const { models, baseUrl } = deps;

  /** Stores a new link (voiding the user's older ones of the purpose) and answers its URL, built from BASE_URL. */
  async function create(
    userId: string,
    purpose: EmailTokenPurpose,
    extra: { newEmail?: string; sessionId?: string | null } = {},
    transaction?: Transaction,
  ): Promise<string> {
    const token = crypto.randomBytes(TOKEN_BYTES).toString('base64url');
    const now = Date.now();
    await models.EmailToken.destroy({ where: { userId, purpose }, transaction });
    await models.EmailToken.create(
      {
        id: crypto.randomUUID(),
        userId,
        purpose,
        newEmail: extra.newEmail ?? null,
        tokenHash: hashToken(purpose, token),
        sessionId: extra.sessionId ?? null,
        expiresAt: new Date(now + EMAIL_LINK_TTL_SECONDS * 1000),
        createdAt: new Date(now),
      },
      { transaction },
    );
    return `${baseUrl}${EMAIL_LINK_PATHS[purpose]}?token=${encodeURIComponent(token)}`;
  }

  /**
   * Uses a link once: the row if the token is known, of this purpose, unexpired and this call deleted it;
   * else null (unknown, tampered, used, expired, or a parallel click won). An expired row is deleted too.
   */
  async function claim(token: string, purpose: EmailTokenPurpose): Promise<EmailToken | null> {
    if (token.length === 0 || token.length > EMAIL_LINK_TOKEN_MAX) return null;
    const row = await models.EmailToken.findOne({ where: { tokenHash: hashToken(purpose, token), purpose } });
    if (!row) return null;
    const deleted = await models.EmailToken.destroy({ where: { id: row.id } });
    if (deleted !== 1 || row.expiresAt.getTime() <= Date.now()) return null;
    return row;
  }

  /** Deletes the user's live links (all purposes unless one is named): the address they prove changed. */
  async function voidFor(userId: string, transaction?: Transaction, purpose?: EmailTokenPurpose): Promise<void> {
    await models.EmailToken.destroy({ where: { userId, ...(purpose ? { purpose } : {}) }, transaction });
  }

  /** Deletes expired links (retention). */
  return { create, claim, voidFor };
}

export type EmailLinks = ReturnType<typeof createEmailLinks>;
