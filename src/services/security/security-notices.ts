import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import { renderSecurityNoticeEmail, type SecurityNotice } from '../../mail/security-notice-email';
import { createBackgroundWork } from '../operations/background-work';
import type { Mailer } from '../operations/mailer';
import type { RequestContext } from '../../http/request-context';
import { describeAgent } from '../../util/user-agent';
import { accountPage } from '../../http/account-sections';

/** Where a notice sends the owner to see and undo what changed (linked accounts, sessions, password). */
const PROFILE_PATH = accountPage('security');

/**
 * What a service asks to be mailed. The service writes only what it knows (`facts`: which provider account,
 * which permissions); when and from where are added here from `context`, as parsed facts: the time, browser
 * and OS read by ua-parser-js, the IP address. The raw User-Agent is never quoted: anyone can write a
 * phishing line into it, and a notice comes from us.
 */
export type NoticeRequest = Omit<SecurityNotice, 'facts'> & { facts?: string[]; context?: RequestContext };

/** The time, browser and OS (as parsed), and IP address of the request that made the change. */
function whenAndWhere(context: RequestContext | undefined): string[] {
  const { browser, os } = describeAgent(context?.userAgent ?? null);
  const device = [browser, os].filter(Boolean).join(' on ');
  return [
    `When: ${new Date().toUTCString()}`,
    ...(device ? [`Browser: ${device}`] : []),
    ...(context?.ip ? [`IP address: ${context.ip}`] : []),
  ];
}

/**
 * Mails the owner of an account a notice of a security-relevant change (a provider linked, say), after the
 * answer and without ever failing the request: a mail service that is down is logged, nothing more.
 */
export function createSecurityNotices(deps: { config: Pick<Config, 'baseUrl'>; mailer: Mailer; logger: Logger }) {
  const { config, mailer } = deps;
  const log = deps.logger.child({ component: 'security-notices' });
  const background = createBackgroundWork();

  function send(to: string, request: NoticeRequest): void {
    const { context, facts = [], ...rest } = request;
    const notice: SecurityNotice = { ...rest, facts: [...facts, ...whenAndWhere(context)] };
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
