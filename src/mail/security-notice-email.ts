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
  /**
   * A name someone chose (a passkey's, an API key's): whoever added the credential wrote it, so it is quoted
   * last, marked as a chosen name, with its links broken, never woven into the sentences the service writes.
   */
  chosenName?: string;
}

/** Longest chosen name quoted. */
const CHOSEN_NAME_MAX = 100;

/**
 * A chosen name as a notice quotes it: one line, bounded, and with its web addresses broken
 * (`https[:]//evil[.]example`) so no mail client turns them into links in a mail that comes from us.
 */
export function quotedName(name: string): string {
  const line = name.replace(/[\p{Cc}\p{Cf}\s]+/gu, ' ').trim().slice(0, CHOSEN_NAME_MAX);
  const unlinked = line.replace(/:\/\//g, '[:]//').replace(/([\p{L}\p{N}-])\.(?=[\p{L}\p{N}-])/gu, '$1[.]');
  return `Name you gave it: "${unlinked}"`;
}

/**
 * A mail telling the owner of an account that something security-relevant changed on it (CONTRACT 9 notices),
 * so that nothing a thief does with a stolen session stays invisible. Text and HTML parts; every value escaped;
 * text someone else chose (a credential's name) comes last and marked as such.
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
    (notice.chosenName !== undefined ? paragraph(quotedName(notice.chosenName)) : '') +
    `<p style="margin:16px 0 0"><a href="${escapeHtml(links.profileUrl)}">Open your profile</a></p>` +
    '</div></body></html>';
  const text = [
    notice.summary,
    '',
    ...notice.facts.map((fact) => `- ${fact}`),
    ...(list ? ['', list.heading, ...list.items.map((item) => `- ${item}`)] : []),
    '',
    notice.advice,
    ...(notice.chosenName !== undefined ? ['', quotedName(notice.chosenName)] : []),
    '',
    `Your profile: ${links.profileUrl}`,
    '',
  ].join('\n');
  return { subject: notice.subject, html, text };
}
