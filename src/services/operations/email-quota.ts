/**
 * Mails per address (issue 26, finding 7; issue 44, finding 5): password-reset links, magic links and email-change
 * links alike, at most 3 of each to one address in 15 minutes, whoever asks. Refused silently: the request is answered exactly as when allowed and only sends nothing
 * (a 429 or rate-limit headers would tell a stranger that someone asked for this address lately).
 */
export const MAILS_PER_EMAIL = { limit: 3, windowSeconds: 15 * 60 } as const;

/** A silent per-address quota: whether this request may still send its mail (implemented over the shared store). */
export interface EmailQuota {
  /** Counts one request for the (raw) email: whether it is within the rule, and when the window ends (epoch ms). */
  take(email: string): Promise<{ allowed: boolean; until: number }>;
}
