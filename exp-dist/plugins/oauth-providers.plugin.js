"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.oauthProvidersPlugin = exports.oauthProvidersSettings = exports.OAUTH_PROVIDERS = void 0;
const zod_1 = require("zod");
const plugin_definition_1 = require("./plugin-definition");
exports.OAUTH_PROVIDERS = ['github', 'google'];
const endpointUrl = zod_1.z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048).optional();
/**
 * One provider's credentials. The URL overrides serve GitHub Enterprise and tests (a loopback
 * provider). An enabled provider needs both its client id and secret.
 */
const providerSettings = zod_1.z
    .strictObject({
    clientId: zod_1.z.string().max(512).default(''),
    clientSecret: zod_1.z.string().max(1024).default(''),
    enabled: zod_1.z.boolean({ message: 'must be true or false' }).default(false),
    authorizationURL: endpointUrl,
    tokenURL: endpointUrl,
    userProfileURL: endpointUrl,
    userEmailsURL: endpointUrl,
})
    .superRefine((provider, issue) => {
    if (!provider.enabled)
        return;
    for (const key of ['clientId', 'clientSecret']) {
        if (provider[key].trim() === '')
            issue.addIssue({ code: 'custom', path: [key], message: 'is required when the provider is enabled' });
    }
});
exports.oauthProvidersSettings = zod_1.z.strictObject({
    providers: zod_1.z
        .strictObject({
        github: providerSettings.prefault({}),
        google: providerSettings.prefault({}),
    })
        .prefault({}),
});
exports.oauthProvidersPlugin = (0, plugin_definition_1.definePlugin)({
    name: 'oauth-providers',
    description: 'Sign-in and account linking with GitHub and Google',
    settings: exports.oauthProvidersSettings,
    secrets: exports.OAUTH_PROVIDERS.map((provider) => ({ path: ['providers', provider, 'clientSecret'], kind: 'value' })),
});
//# sourceMappingURL=oauth-providers.plugin.js.map