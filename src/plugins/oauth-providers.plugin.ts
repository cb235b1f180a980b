import { z } from 'zod';
import { definePlugin } from './plugin-definition';
import { OAUTH_PROVIDERS } from '../models/oauth-provider-names';


/** The URL overrides of a provider's endpoints. */
const ENDPOINT_KEYS = ['authorizationURL', 'tokenURL', 'userProfileURL', 'userEmailsURL'] as const;

const MESSAGES = {
  retypeSecret: 'must be entered again when an endpoint URL changes',
} as const;

const endpointUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048).optional();

/**
 * One provider's credentials. The URL overrides serve GitHub Enterprise and tests (a loopback
 * provider). An enabled provider needs both its client id and secret.
 */
const providerSettings = z
  .strictObject({
    clientId: z.string().max(512).default(''),
    clientSecret: z.string().max(1024).default(''),
    enabled: z.boolean({ message: 'must be true or false' }).default(false),
    authorizationURL: endpointUrl,
    tokenURL: endpointUrl,
    userProfileURL: endpointUrl,
    userEmailsURL: endpointUrl,
  })
  .superRefine((provider, issue) => {
    if (!provider.enabled) return;
    for (const key of ['clientId', 'clientSecret'] as const) {
      if (provider[key].trim() === '') issue.addIssue({ code: 'custom', path: [key], message: 'is required when the provider is enabled' });
    }
  });
export type OAuthProviderSettings = z.output<typeof providerSettings>;

export const oauthProvidersSettings = z.strictObject({
  providers: z
    .strictObject({
      github: providerSettings.prefault({}),
      google: providerSettings.prefault({}),
    })
    .prefault({}),
});
export type OAuthProvidersSettings = z.output<typeof oauthProvidersSettings>;

export const oauthProvidersPlugin = definePlugin({
  name: 'oauth-providers',
  description: 'Sign-in and account linking with GitHub and Google',
  settings: oauthProvidersSettings,
  // The secret goes to the token endpoint; the others are re-pointed with it in an attack (a provider of one's own).
  secrets: OAUTH_PROVIDERS.map((provider) => ({
    path: ['providers', provider, 'clientSecret'],
    kind: 'value' as const,
    sentTo: ENDPOINT_KEYS.map((key) => ['providers', provider, key]),
    retypeMessage: MESSAGES.retypeSecret,
  })),
  outboundUrls: OAUTH_PROVIDERS.flatMap((provider) => ENDPOINT_KEYS.map((key) => ['providers', provider, key])),
});
