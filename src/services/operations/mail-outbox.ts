import type { Transaction } from 'sequelize';
import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import type { Models } from '../../models';
import type { OutboxEntry } from '../../models/outbox';
import { createSealedBox } from '../../credentials/sealed-box';
import type { Mailer, MailMessage } from './mailer';
import { newOutboxId, type AttemptOutcome, type Outbox } from './outbox';

export interface MailOptions {
  /**
   * When what the mail carries (a code, a link) stops working: it is not sent, nor retried, after that. A mail
   * without one (a security notice) is retried for the outbox's day.
   */
  expiresAt?: Date | null;
}

/** A mail recorded in a caller's transaction, to be attempted once that commits. */
export type RecordedMail = OutboxEntry;

/** What the admin site lists of a mail (CONTRACT 16): never its body, so never its link or code. */
export interface OutboundMailView {
  id: string;
  to: string;
  subject: string;
  status: string;
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
}

/** The row's payload: who and what in the clear (listed), the body sealed until it is delivered or given up. */
interface StoredMail {
  to: string;
  subject: string;
  sealed?: string;
}

/**
 * Mail that is not lost when the mail service fails (CONTRACT 16): every mail the service decides to send is
 * recorded in the outbox, its body sealed under JWT_SECRET (it carries codes and links), and attempted at once
 * by this instance; a failure leaves it to the outbox's workers, which retry with backoff until it is sent or
 * what it carries has expired. Once delivered or given up the sealed body is dropped: the row keeps the
 * address, subject and outcome the admin site lists. The admin's "Send test email" is not recorded: it answers
 * how one attempt went (`deliver`).
 */
export function createMailOutbox(deps: { config: Pick<Config, 'jwtSecret'>; models: Models; outbox: Outbox; transport: Mailer; logger: Logger }) {
  const { models, outbox, transport } = deps;
  const log = deps.logger.child({ component: 'mail-outbox' });
  const sealing = createSealedBox({ secret: deps.config.jwtSecret, salt: 'auth-service', info: 'outbox-mail.v1', layout: 'tag-last' });

  function stored(entry: Pick<OutboxEntry, 'payload'>): StoredMail {
    try {
      return JSON.parse(entry.payload) as StoredMail;
    } catch {
      return { to: '', subject: '' };
    }
  }

  /** Records a mail (in `transaction` when given: it commits, or rolls back, with the change that made it). */
  async function record(message: MailMessage, options: MailOptions & { transaction?: Transaction | null } = {}): Promise<RecordedMail> {
    const id = newOutboxId();
    const body = JSON.stringify({ text: message.text, html: message.html });
    const payload: StoredMail = { to: message.to, subject: message.subject, sealed: sealing.seal(body, id) };
    const [entry] = await outbox.add([{ id, kind: 'mail', eventType: 'mail', payload: JSON.stringify(payload), expiresAt: options.expiresAt ?? null, claimHere: true }], options.transaction);
    return entry;
  }

  /** The first attempt of a recorded mail, after its transaction committed: true when it was delivered now. */
  async function attempt(mail: RecordedMail): Promise<boolean> {
    try {
      return (await outbox.attemptNow(mail)) === 'delivered';
    } catch (err) {
      // The row stays leased; once the lease runs out a worker attempts it.
      log.error({ id: mail.id, err: { message: (err as Error).message } }, 'could not record a mail attempt');
      return false;
    }
  }

  /**
   * Sends a mail durably: recorded, then attempted at once. With no mail service configured nothing is
   * recorded (there is nowhere to retry to): the transport logs it, as it always did.
   */
  async function send(message: MailMessage, options: MailOptions = {}): Promise<boolean> {
    if (!(await transport.isConfigured())) return transport.send(message);
    return attempt(await record(message, options));
  }

  /** The outbox's handler for mail: opens the body and hands it to the transport. */
  async function deliverEntry(entry: OutboxEntry): Promise<AttemptOutcome> {
    const { to, subject, sealed } = stored(entry);
    const body = sealed ? sealing.open(sealed, entry.id) : null;
    if (!body) return { outcome: 'failed', error: 'the mail does not open under JWT_SECRET' };
    const { text, html } = JSON.parse(body.toString('utf8')) as Pick<MailMessage, 'text' | 'html'>;
    const result = await transport.deliver({ to, subject, text, html });
    return result.sent ? { outcome: 'delivered' } : { outcome: 'retry', error: result.error };
  }

  outbox.handle('mail', deliverEntry, {
    redactWhenDone: (payload) => {
      const { to, subject } = stored({ payload });
      return JSON.stringify({ to, subject });
    },
  });

  /** One page of outbound mail, newest first (the email plugin's page). */
  async function list(paging: { page: number; limit: number }): Promise<{ mails: OutboundMailView[]; total: number; page: number; limit: number }> {
    const { rows, count } = await models.OutboxEntry.findAndCountAll({
      where: { kind: 'mail' },
      order: [['createdAt', 'DESC'], ['id', 'DESC']],
      limit: paging.limit,
      offset: (paging.page - 1) * paging.limit,
    });
    const mails = rows.map((entry) => {
      const { to, subject } = stored(entry);
      return {
        id: entry.id,
        to,
        subject,
        status: entry.status,
        attempts: entry.attempts,
        createdAt: entry.createdAt.toISOString(),
        lastAttemptAt: entry.lastAttemptAt?.toISOString() ?? null,
        nextAttemptAt: entry.status === 'pending' ? entry.nextAttemptAt.toISOString() : null,
      };
    });
    return { mails, total: count, page: paging.page, limit: paging.limit };
  }

  return { isConfigured: transport.isConfigured, deliver: transport.deliver, send, record, attempt, list };
}

export type MailOutbox = ReturnType<typeof createMailOutbox>;
