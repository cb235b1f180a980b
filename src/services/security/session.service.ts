import crypto from 'node:crypto';
import { Op, type Sequelize, type Transaction } from 'sequelize';
import { describeAgent } from '../../util/user-agent';
import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import type { Models, Session } from '../../models';
import type { AdminAudit, RequestContext } from '../../http/request-context';
import type { AccessClaims } from '../../sessions/auth-user';
import type { Revocations } from '../../sessions/revocations';
import type { SignInSession } from '../../sessions/token.service';
import type { SettingsService } from '../operations/settings.service';
import type { ActivityEntry, ActivityService } from '../operations/activity.service';
import type { SecurityNotices } from './security-notices';
import type { Metrics } from '../../metrics/metrics';
import { fromSqlDate, sqlDate } from '../../db/sql-date';
import { transactionWithRetry } from '../../db/transaction-retry';
import { preparedStatements, type Statement } from '../../db/prepared-statements';
import { eventUser, type EventUserFields } from '../operations/webhook-events';
import type { Events } from '../operations/webhooks.service';
import { changeWithEvent } from '../operations/event-transaction';
import { BoundedMap } from '../../util/bounded-map';

/** A session as `GET /auth/sessions` and the admin API answer it (CONTRACT 8). */
export interface SessionView {
  id: string;
  method: string;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
  browser: string | null;
  os: string | null;
  current: boolean;
}

/** What a refresh may do with the session of the presented token. */
export type RefreshOutcome = { ok: true; session: SignInSession } | { ok: false; reason: 'invalid' | 'expired' };

/*
 * Written by hand, like the sign-in's user read and activity row: every sign-in writes one, and `Session.create`
 * (instance, validation, hooks, generated INSERT) costs main-thread CPU a login cannot spare. Columns as the
 * migration made them; the dates written with their milliseconds (sqlDate), as the model would.
 */
const INSERT_SESSION =
  'INSERT INTO sessions (id, user_id, method, ip, user_agent, browser, os, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

/** What a refresh reads of its session: by hand, like the sign-in's row (dates as the driver gives them: fromSqlDate). */
const SELECT_REFRESHED_SESSION = 'SELECT user_id, revoked_at, created_at, expires_at FROM sessions WHERE id = ?';
interface RefreshedSessionRow {
  user_id: string;
  revoked_at: string | Date | null;
  created_at: string | Date;
  expires_at: string | Date;
}
/** A refresh's write of its session: used now, its end as the lifetime configured now allows, the address it came from. */
const UPDATE_REFRESHED_SESSION = 'UPDATE sessions SET last_used_at = ?, expires_at = ?, ip = COALESCE(?, ip) WHERE id = ?';

/** `lastUsedAt` moves at most this often outside a refresh, per session and process: never a write per request. */
const TOUCH_INTERVAL_MS = 60_000;
/** Sessions whose touch time this process remembers (oldest forgotten first): bounds the memory, not correctness. */
const TOUCHED_SESSIONS = 10_000;
const TEXT_MAX = { userAgent: 512, ip: 64 } as const;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Sessions (CONTRACT 8): one row per sign-in, whatever the method, that its tokens name by `sid`. The row is
 * what users and admins see and end; ending one writes a revocation of its sid, which every instance checks on
 * the hot path from the store (no read of this table per request). Refresh rotates: the presented token is
 * superseded, still good for the reuse window, and presenting it again after that window is taken as theft:
 * the whole session ends, the owner is told.
 */
export function createSessionService(deps: {
  config: Pick<Config, 'refreshReuseWindowSeconds'>;
  models: Models;
  revocations: Pick<Revocations, 'revoke'>;
  settings: Pick<SettingsService, 'getSecuritySettings'>;
  activity: ActivityService;
  notices: Pick<SecurityNotices, 'send'>;
  metrics?: Pick<Metrics, 'sessions'>;
  logger: Logger;
  /** CONTRACT 16: session.created (every sign-in method ends here), session.revoked, session.reuse_detected. */
  events: Events;
}) {
  const { config, models, revocations, settings, activity, notices, metrics, events } = deps;
  const log = deps.logger.child({ component: 'sessions' });
  const touched = new BoundedMap<string, number>(TOUCHED_SESSIONS);
  const sequelize = models.Session.sequelize as Sequelize;
  const statements = preparedStatements(sequelize);

  /**
   * `write` commits the session's row with the activity entry's statements (one commit); should that fail, the row
   * is written alone and the entry after it, as `activity.record` writes any entry: an activity row never fails a
   * sign-in or a refresh. An entry with no statements of its own (a repeat) is recorded after the row.
   */
  async function withAudit(write: (writes: readonly Statement[]) => Promise<void>, row: Statement, audit: ActivityEntry, context: RequestContext): Promise<void> {
    const audited = activity.statements(audit, context);
    try {
      await write([row, ...(audited ?? [])]);
      if (audited) return;
    } catch (err) {
      if (!audited) throw err;
      log.warn({ err: (err as Error).message }, 'could not write an activity row with its session: written apart');
      await write([row]);
    }
    await activity.record(audit, context);
  }

  /** Notes that the session's lastUsedAt was just written (a sign-in, a refresh, a touch); the oldest note goes first. */
  function remember(sid: string): void {
    touched.set(sid, Date.now());
  }

  /**
   * A new session for a sign-in: the row, and the sid / auth_time / absolute end its tokens carry. `user` is the
   * one the sign-in already read: session.created names it without a read of its own (issue 51: an event costs a
   * request one INSERT in its transaction, no more). `audit`: the sign-in's activity entry, written here with the
   * row and committed with it (issue 51: one commit for a sign-in's rows, not three). Should that fail, the row is
   * written alone and the entry after it, as `activity.record` writes any entry: an activity row never fails a sign-in.
   */
  async function start(user: EventUserFields, method: string, context: RequestContext, options: { audit?: ActivityEntry } = {}): Promise<SignInSession> {
    const { sessionMaxAgeSeconds } = await settings.getSecuritySettings();
    const now = new Date();
    const userAgent = context.userAgent?.slice(0, TEXT_MAX.userAgent) ?? null;
    const id = crypto.randomUUID();
    const expiresAt = new Date(now.getTime() + sessionMaxAgeSeconds.seconds * 1000);
    const { browser, os } = describeAgent(userAgent);
    const [created, ends] = [sqlDate(sequelize, now), sqlDate(sequelize, expiresAt)];
    const row: Statement = {
      sql: INSERT_SESSION,
      values: [id, user.id, method.slice(0, 32), context.ip?.slice(0, TEXT_MAX.ip) ?? null, userAgent, browser, os, created, created, ends],
    };
    // With nobody listening for session.created, the rows commit as one atomic write; otherwise the event joins them in one transaction.
    const listened = await events.listens('session.created');
    const write = async (writes: readonly Statement[]) => {
      if (listened) {
        await transactionWithRetry(sequelize, async (transaction) => {
          for (const { sql, values } of writes) await statements.write(sql, values, { transaction });
          await events.record('session.created', { user: eventUser(user), session: { id, method } }, { transaction });
        });
      } else if (writes.length === 1) {
        await statements.write(writes[0].sql, writes[0].values);
      } else {
        await statements.writeAll(writes);
      }
    };
    if (options.audit) await withAudit(write, row, options.audit, context);
    else await write([row]);
    remember(id);
    return { sid: id, authTime: Math.floor(now.getTime() / 1000), expiresAt: Math.floor(expiresAt.getTime() / 1000) };
  }

  /** Removes a session whose sign-in did not complete (its one-time credential was refused): no token of it was handed out. */
  async function discard(sid: string): Promise<void> {
    await models.Session.destroy({ where: { id: sid } });
  }

  /**
   * A refresh of a token that passed the token checks: its session must be live and within its absolute
   * lifetime, judged against the lifetime as configured now (CONTRACT 8: a lowered lifetime reaches existing
   * sessions at their next refresh; a raised one never extends them). The presented token is superseded: it
   * keeps working for the reuse window, then ends.
   */
  async function refreshed(claims: AccessClaims, context: RequestContext, audit: ActivityEntry): Promise<RefreshOutcome> {
    const [session] = await statements.select<RefreshedSessionRow>(SELECT_REFRESHED_SESSION, [claims.sid]);
    if (!session || session.user_id !== claims.sub || session.revoked_at !== null) return { ok: false, reason: 'invalid' };
    const { jwtRefreshGraceSeconds, sessionMaxAgeSeconds } = await settings.getSecuritySettings();
    // From the row's sign-in time, not the token's auth_time: a step-up moves that, and must not lengthen the session.
    const expiresAt = fromSqlDate(session.expires_at).getTime();
    const endsAt = Math.min(expiresAt, fromSqlDate(session.created_at).getTime() + sessionMaxAgeSeconds.seconds * 1000);
    if (endsAt <= Date.now()) return { ok: false, reason: 'expired' };
    const supersededAt = nowSeconds() + config.refreshReuseWindowSeconds;
    const row: Statement = {
      sql: UPDATE_REFRESHED_SESSION,
      values: [sqlDate(sequelize, new Date()), sqlDate(sequelize, new Date(endsAt)), context.ip?.slice(0, TEXT_MAX.ip) ?? null, claims.sid],
    };
    // The superseded token's revocation, the session row and the activity entry: one commit (issue 51).
    const revoke = (writes: readonly Statement[]) =>
      revocations.revoke(claims.jti, claims.exp + (claims.grace ?? jwtRefreshGraceSeconds.seconds), supersededAt, writes);
    await withAudit(revoke, row, audit, context);
    remember(claims.sid);
    return { ok: true, session: { sid: claims.sid, authTime: claims.auth_time, expiresAt: Math.floor(endsAt / 1000) } };
  }

  /**
   * Revokes the session's sid for every token of it on every instance (the store and its database mirror). The
   * mark lives until no token of the session could still be used or refreshed: none is issued past the session's
   * absolute end, and none gets more refresh grace than the current one (a lowered grace applies at once). Done
   * before the row is marked and outside its transaction: should the mark fail, the tokens are dead all the same.
   */
  async function revokeTokens(session: Session): Promise<void> {
    const { jwtRefreshGraceSeconds } = await settings.getSecuritySettings();
    await revocations.revoke(session.id, Math.floor(session.expiresAt.getTime() / 1000) + jwtRefreshGraceSeconds.seconds);
  }

  /** Marks the session's row ended; answers whether this call marked it: of racing ends, exactly one. */
  async function mark(session: Session, transaction?: Transaction): Promise<boolean> {
    const [marked] = await models.Session.update({ revokedAt: new Date() }, { where: { id: session.id, revokedAt: null }, transaction });
    if (marked === 0) return false;
    if (transaction) transaction.afterCommit(() => metrics?.sessions.revoked.inc());
    else metrics?.sessions.revoked.inc();
    return true;
  }

  /** Ends the session of that id, if it is still live (logout: every token of the sign-in, not only the one presented). */
  async function endById(sid: string): Promise<void> {
    const session = await models.Session.findOne({ where: { id: sid, revokedAt: null } });
    if (!session) return;
    await revokeTokens(session);
    await mark(session);
  }

  /**
   * A superseded token came back after the reuse window: someone holds a copy of it. The session ends at
   * once (the thief's tokens and the owner's alike), `session.reuse_detected` is recorded with the row's mark
   * and the owner mailed.
   */
  async function reuseDetected(claims: AccessClaims, context: RequestContext): Promise<void> {
    const session = await models.Session.findByPk(claims.sid);
    if (!session || session.revokedAt) return;
    await revokeTokens(session);
    const about = { session: { id: session.id, method: session.method } };
    // Racing reuses of one token all get here: only the one that marked the row records and mails.
    const marked = await changeWithEvent(
      { sequelize, events },
      'session.reuse_detected',
      (transaction) => mark(session, transaction),
      async (won, transaction) => {
        if (won) await events.recordForUser('session.reuse_detected', session.userId, about, { transaction });
      },
    );
    if (!marked) return;
    const owner = await models.User.findByPk(session.userId, { attributes: ['id', 'email'] });
    if (!owner) return;
    const details = { sessionId: session.id, method: session.method };
    await activity.record({ action: 'session.reuse_detected', userId: owner.id, email: owner.email, details }, context);
    log.warn({ userId: owner.id, sessionId: session.id }, 'refresh token reuse detected: session revoked');
    notices.send(owner.email, {
      subject: 'A sign-in of yours was ended for your safety',
      summary: 'An old copy of one of your sign-in tokens was used after it had been replaced. We ended that sign-in on every device that shared it.',
      facts: [
        `Sign-in: ${session.method}, ${[session.browser, session.os].filter(Boolean).join(' on ') || 'unknown device'}, started ${session.createdAt.toUTCString()}`,
      ],
      // Where the old token came from, as parsed facts: its User-Agent is the thief's own text.
      context,
      advice: 'If this was not you, change your password and review your sessions and linked accounts on your profile. Otherwise just sign in again.',
    });
  }

  /** The user's live sessions (not ended, not past their absolute end), newest first. */
  async function active(userId: string): Promise<Session[]> {
    return models.Session.findAll({
      where: { userId, revokedAt: null, expiresAt: { [Op.gt]: new Date() } },
      order: [['createdAt', 'DESC'], ['id', 'ASC']],
    });
  }

  function view(session: Session, currentSid: string | undefined): SessionView {
    const { id, method, createdAt, lastUsedAt, expiresAt, ip, userAgent, browser, os } = session;
    return { id, method, createdAt, lastUsedAt, expiresAt, ip, userAgent, browser, os, current: id === currentSid };
  }

  async function list(userId: string, currentSid?: string): Promise<SessionView[]> {
    return (await active(userId)).map((session) => view(session, currentSid));
  }

  /**
   * Ends the user's sessions: their tokens first, then their rows with `session.revoked` in one transaction, and
   * the activity row naming who ended them (the user themselves or an admin).
   */
  async function endSessions(userId: string, sessions: Session[], audit: AdminAudit): Promise<void> {
    if (sessions.length === 0) return;
    for (const session of sessions) await revokeTokens(session);
    const sessionIds = sessions.map((session) => session.id);
    await changeWithEvent(
      { sequelize, events },
      'session.revoked',
      async (transaction) => {
        for (const session of sessions) await mark(session, transaction);
      },
      (_, transaction) => events.recordForUser('session.revoked', userId, { sessions: sessionIds.map((id) => ({ id })), actor: audit.actor }, { transaction }),
    );
    const details = { targetUserId: userId, sessionIds, by: audit.actor.id === userId ? 'self' : 'admin' };
    await activity.record({ action: 'session.revoked', userId: audit.actor.id, email: audit.actor.email, details }, audit.context);
  }

  /** Ends one of the user's live sessions; false when the user has none of that id (another user's: not found). */
  async function revoke(userId: string, sessionId: string, audit: AdminAudit): Promise<boolean> {
    const session = await models.Session.findOne({ where: { id: sessionId, userId, revokedAt: null } });
    if (!session) return false;
    await endSessions(userId, [session], audit);
    return true;
  }

  /** Ends every live session of the user but `keepSid` (the one asking, for "sign out everywhere else"); answers how many. */
  async function revokeAll(userId: string, keepSid: string | undefined, audit: AdminAudit): Promise<number> {
    const ending = (await active(userId)).filter((session) => session.id !== keepSid);
    await endSessions(userId, ending, audit);
    return ending.length;
  }

  /**
   * Moves `lastUsedAt` of a session seen on a request, at most once a minute per session in this process, off
   * the request path (several instances each write at most that often). Never fails a request.
   */
  function touch(sid: string | undefined): void {
    if (!sid) return;
    const last = touched.get(sid);
    if (last !== undefined && Date.now() - last < TOUCH_INTERVAL_MS) return;
    remember(sid);
    void models.Session.update({ lastUsedAt: new Date() }, { where: { id: sid, revokedAt: null } }).catch((err: unknown) => {
      log.warn({ err: (err as Error).message }, 'could not record a session as used');
    });
  }

  return { start, discard, endById, refreshed, reuseDetected, list, revoke, revokeAll, touch };
}

export type SessionService = ReturnType<typeof createSessionService>;
