import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { renderSecurityNoticeEmail, type SecurityNotice } from '../mail/security-notice-email';
import { createBackgroundWork } from './background-work';
import type { Mailer } from './mailer';

/** Where a notice sends the owner to see and undo what changed (linked accounts, sessions, password). */
const PROFILE_PATH = '/admin/profile';

/**
 * Mails the owner of an account a notice of a security-relevant change (a provider linked, say), after the
 * answer and without ever failing the request: a mail service that is down is logged, nothing more.
 */
export function createSecurityNotices(deps: { config: Pick<Config, 'baseUrl'>; mailer: Mailer; logger: Logger }) {
  const { config, mailer } = deps;
  const log = deps.logger.child({ component: 'security-notices' });
  const background = createBackgroundWork();

  function send(to: string, notice: SecurityNotice): void {
    background.start(async () => {
      try {
        const mail = renderSecurityNoticeEmail(notice, { profileUrl: `${config.baseUrl}${PROFILE_PATH}` });
        // The mailer logs a failed delivery itself (address masked, reason without credentials).
        await mailer.send({ to, ...mail });
      } catch (err) {
        log.error({ err: (err as Error).message, subject: notice.subject }, 'could not send a security notice');
      }
    });
  }

  /** Resolves when every notice started so far has been handed to the mail service (tests, shutdown). */
  return { send, idle: background.idle };
}

export type SecurityNotices = ReturnType<typeof createSecurityNotices>;
