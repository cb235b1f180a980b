import { escapeHtml } from './html';
import type { RenderedEmail } from './otp-email';

/** What a security notice says: what happened, the facts, and what to do if it was not the owner. */
export interface SecurityNotice {
  subject: string;
  /** One sentence: what changed on the account. */
  summary: string;
  /** Facts worth checking (which provider account, when, from where), one per line. */
  facts: string[];
  /** A heading for `list` and its items (the accounts now linked, say); omitted when empty. */
  list?: { heading: string; items: string[] };
  /** What to do if the owner did not do this. */
  advice: string;
}

/**
 * A mail telling the owner of an account that something security-relevant changed on it (CONTRACT 9 notices),
 * so that nothing a thief does with a stolen session stays invisible. Text and HTML parts; every value escaped.
 */
export function renderSecurityNoticeEmail(notice: SecurityNotice, links: { profileUrl: string }): RenderedEmail {
  const list = notice.list && notice.list.items.length > 0 ? notice.list : null;
  const paragraph = (text: string) => `<p style="margin:0 0 12px">${escapeHtml(text)}</p>`;
  const html =
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f6f7f9;font-family:Arial,Helvetica,sans-serif;color:#1f2328">' +
    '<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">' +
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(notice.subject)}</h1>` +
    paragraph(notice.summary) +
    (notice.facts.length > 0 ? `<ul style="margin:0 0 12px">${notice.facts.map((fact) => `<li>${escapeHtml(fact)}</li>`).join('')}</ul>` : '') +
    (list ? paragraph(list.heading) + `<ul style="margin:0 0 12px">${list.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>` : '') +
    paragraph(notice.advice) +
    `<p style="margin:16px 0 0"><a href="${escapeHtml(links.profileUrl)}">Open your profile</a></p>` +
    '</div></body></html>';
  const text = [
    notice.summary,
    '',
    ...notice.facts.map((fact) => `- ${fact}`),
    ...(list ? ['', list.heading, ...list.items.map((item) => `- ${item}`)] : []),
    '',
    notice.advice,
    '',
    `Your profile: ${links.profileUrl}`,
    '',
  ].join('\n');
  return { subject: notice.subject, html, text };
}
