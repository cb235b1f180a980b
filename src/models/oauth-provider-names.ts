/** The providers an `oauth_accounts.provider` value may name, and how pages and mails call them. */
export const OAUTH_PROVIDERS = ['github', 'google'] as const;
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];

export const PROVIDER_LABELS: Readonly<Record<OAuthProviderName, string>> = { github: 'GitHub', google: 'Google' };
