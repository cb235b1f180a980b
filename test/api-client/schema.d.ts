// Generated from GET /api/openapi.json by openapi-typescript (test/api-client/client.test.ts).
// Regenerate: UPDATE_API_CLIENT=1 npx mocha test/api-client/client.test.ts

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database and the key-value store answer (each within 2 s) */
        get: operations["getHealthReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public keys that verify this service’s tokens (JWK Set; empty under HS256) */
        get: operations["getWellKnownJwksJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user-profiles/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Custom profile field definitions */
        get: operations["getApiUserProfilesSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user-profiles/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's profile */
        get: operations["getApiUserProfilesByUserId"];
        /** Update a user's profile (custom data is merged, then validated as a whole) */
        put: operations["putApiUserProfilesByUserId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with email and password */
        post: operations["postAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register (the first user becomes admin) */
        post: operations["postAuthRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user with custom profile fields */
        get: operations["getAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new token for a valid one, or one expired within the grace window */
        post: operations["postAuthRefresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out: this token stops working at once */
        post: operations["postAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out everywhere: every token of the user ends */
        post: operations["postAuthLogoutAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/seed-admin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create the first admin (only while no admin exists) */
        post: operations["postAuthSeedAdmin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/otp/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Email a one-time sign-in code
         * @description The same answer for unknown, deactivated and active accounts; only an active account (or, while the plugin allows new users and registration is allowed, an unknown email) gets the mail. A new code voids older ones. Limited to rateLimitPerHour codes per email per hour.
         */
        post: operations["postAuthOtpRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/otp/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with an emailed one-time code
         * @description Every check counts against maxAttempts, atomically; a spent or used code is dead. Success sets auth_token and csrf_token. An unknown email becomes a viewer only while allowNewUserRegistration is on and registration is allowed.
         */
        post: operations["postAuthOtpVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sign-in/magic-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Email a sign-in link
         * @description The same answer (status, body, headers) for unknown, deactivated and active accounts. An active account gets a link, valid 15 minutes and usable once; an unknown email only while registration is allowed (the account is created when the link is used); a deactivated one never. Limited per client IP (5 a minute) and per email (3 per 15 minutes).
         */
        post: operations["postAuthSignInMagicLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/magic-link/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign in with an emailed link
         * @description Uses the link once (of parallel clicks exactly one signs in). Success: 302 to the same-origin callbackURL (default /admin) with auth_token, csrf_token and a server session (auth_session, HttpOnly, SameSite=Lax). A bad, used, expired or revoked link (logout-all, password reset, deactivation): 302 to /auth/login?notice=magic_link_invalid.
         */
        get: operations["getAuthMagicLinkVerify"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/oauth/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's linked OAuth accounts */
        get: operations["getAuthOauthAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/oauth/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link a provider account to the signed-in user
         * @description Answers the authorization URL whose state is bound to the signed-in user and to this browser (a per-flow binding cookie is set on this answer). A form post (the profile page) is redirected there instead. Step-up: the sign-in must be at most 10 minutes old (auth_time), else 403 with stepUp: true (a page is sent to sign in again).
         */
        post: operations["postAuthOauthLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/oauth/unlink": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove the link to a provider from the signed-in user's account */
        post: operations["postAuthOauthUnlink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/oauth/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start signing in with a provider
         * @description Redirects to the provider with redirect_uri BASE_URL/auth/oauth/<provider>/callback, a 256-bit state bound to this browser (HttpOnly SameSite=Lax cookie oauth_binding, 10 minutes, plus a single-use record in the shared store) and a PKCE S256 challenge. Scopes: GitHub read:user user:email; Google openid email profile. Rate limited with the callback: 30 per minute per IP.
         */
        get: operations["getAuthOauthByProvider"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/oauth/{provider}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider sends the browser back here
         * @description Query: code and state, or error. The state is consumed once and must come from this browser; the code is exchanged with the PKCE verifier. Outcome rules: an existing link signs its user in; else a provider-verified email of an account links it and signs in; else a new viewer (the first user ever: admin) while registration is allowed. A linking flow ends at /admin/profile/security with no new session and no cookies (the browser that started it is already signed in), and mails the owner a notice. Every failure (state, provider error, token, no or unverified email, deactivated user, registration off) is a 302 with ?notice=<code> (src/http/notices.ts) and no cookies.
         */
        get: operations["getAuthOauthByProviderCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start single sign-on with the provider that owns the address’s domain */
        post: operations["postAuthSso"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sso/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Start single sign-on with one provider (302 to it) */
        get: operations["getAuthSsoBySlug"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sso/{slug}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the OpenID Connect provider returns the browser; signs in or redirects to /auth/login?notice=… */
        get: operations["getAuthSsoBySlugCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sso/{slug}/acs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** SAML Assertion Consumer Service (HTTP-POST): signs in, or redirects to /auth/login?notice=… */
        post: operations["postAuthSsoBySlugAcs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's live sessions, newest first (this one marked current) */
        get: operations["getAuthSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sessions/revoke-others": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out every session but this one */
        post: operations["postAuthSessionsRevokeOthers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Sign out one of your sessions (every token of it, on every instance) */
        delete: operations["deleteAuthSessionsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your API keys (not revoked), newest first */
        get: operations["getAuthApiKeys"];
        put?: never;
        /** Make an API key (shown this once) acting as you with some or all of your permissions */
        post: operations["postAuthApiKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of your API keys (at once, on every instance) */
        delete: operations["deleteAuthApiKeysById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/connected-apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The applications you let sign you in, with what you allowed each */
        get: operations["getAuthConnectedApps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/connected-apps/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Take back what you allowed an application: its tokens end and it must ask again */
        delete: operations["deleteAuthConnectedAppsByClientId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/2fa/totp/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start TOTP enrolment: a new secret and its otpauth URL (step-up) */
        post: operations["postAuth2faTotpSetup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/2fa/totp/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm enrolment with a code from the app; answers the recovery codes, shown this once */
        post: operations["postAuth2faTotpConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/2fa/recovery-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new set of recovery codes; the old set stops working (step-up) */
        post: operations["postAuth2faRecoveryCodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/2fa/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn two-factor off: TOTP and recovery codes removed (step-up) */
        post: operations["postAuth2faDisable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/2fa/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The second step of a sign-in: a code, a recovery code or a passkey (assertion for POST /auth/2fa/passkey/options) for the challenge
         * @description Ends in the normal sign-in answer. A wrong code and an unknown, used or expired challenge answer the same 401; the fifth wrong code ends the challenge; wrong codes count in the per-account throttle.
         */
        post: operations["postAuth2faVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/step-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Prove it is you again (with a second factor on: a TOTP code, a recovery code or a passkey; else the password): a new token of the same session with a new auth_time */
        post: operations["postAuthStepUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/step-up/passkey/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request options for stepping up with one of your passkeys (user verification required)
         * @description Send the assertion to POST /auth/step-up as `{ passkey }`.
         */
        post: operations["postAuthStepUpPasskeyOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Confirm an email address with the emailed link (24 hours, single use) */
        get: operations["getAuthVerifyEmail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/verify-email/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a new verification link to the signed-in user (nothing when already verified; at most one a minute) */
        post: operations["postAuthVerifyEmailResend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/email/change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask to move the account to a new address: a confirmation link goes to it
         * @description The same 200 whether or not the address is taken (a taken address gets no mail). currentPassword is required when the account has a password. Nothing changes until the link is used; then every other session ends and the old address gets a notice.
         */
        post: operations["postAuthEmailChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change your password: a new token for this session, every other session ends
         * @description currentPassword goes through the same throttled check as a sign-in (429 while the account is blocked). The owner is mailed a notice listing the API keys, passkeys and linked accounts still on the account (CONTRACT 18).
         */
        post: operations["postAuthPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/email/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Confirm a change of address with the link mailed to the new address */
        get: operations["getAuthEmailConfirm"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete your own account (content stays, without an author) */
        delete: operations["deleteAuthAccount"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/account/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your data as JSON: profile, linked accounts, sessions, passkeys, activity (no hashes or secrets) */
        get: operations["getAuthAccountExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/passkeys/register/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start registering a passkey: creation options with a fresh challenge (5 minutes, single use) */
        post: operations["postAuthPasskeysRegisterOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/passkeys/register/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish registering a passkey with the browser's response
         * @description The response must answer a challenge this user was given by register/options and not yet used. The owner is mailed a notice.
         */
        post: operations["postAuthPasskeysRegisterVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/passkeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's passkeys, oldest first */
        get: operations["getAuthPasskeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/passkeys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one of your passkeys: it signs in no more */
        delete: operations["deleteAuthPasskeysById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/passkeys/login/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a passkey sign-in: request options with a fresh challenge (5 minutes, single use)
         * @description `{}` for a discoverable passkey (the browser offers the passkeys it holds for this site); `{ email }` lists that account's passkeys. An email without passkeys (or without an account) gets an answer of the same shape, so it tells nothing.
         */
        post: operations["postAuthPasskeysLoginOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/passkeys/login/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with a passkey
         * @description The normal sign-in answer: a session, auth_token and csrf_token cookies, `{ user, token }`. A passkey that verified its holder satisfies the second factor; without that, an account with one answers `{ twoFactorRequired, challenge, methods }` (a page: 302 to /auth/2fa).
         */
        post: operations["postAuthPasskeysLoginVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/2fa/passkey/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request options for answering a sign-in's second step with a passkey
         * @description After a first factor answered `{ twoFactorRequired, challenge, methods }` with `passkey` among the methods: options for the user's own passkeys, user verification required. Send the assertion to POST /auth/2fa/verify as `{ challenge, passkey }`.
         */
        post: operations["postAuth2faPasskeyOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/request-password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Email a password reset link
         * @description Always answers the same, whether or not the account exists. Rate limited: 3 per 15 minutes per client IP.
         */
        post: operations["postAuthRequestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with a reset token
         * @description The token is single-use and valid for one hour. Every existing session token of the user stops working.
         */
        post: operations["postAuthResetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import users (NDJSON or a JSON array, up to 50 MB, read as a stream)
         * @description One user a record. The upload is streamed to a temporary file first (over 50 MB: 413, nothing written), then imported while the client waits. Each record is checked with the user rules; a refused record is listed with its line and never stops the others. Records are written in batches, each one transaction. No mail is sent. Imported accounts are vouched for. Hashes are checked at the next sign-in and then re-hashed.
         */
        post: operations["postApiUsersImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export every user as NDJSON in the import format (streamed) */
        get: operations["getApiUsersExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List users (paged; search by email, username or name; filter by role) */
        get: operations["getApiUsers"];
        put?: never;
        /** Create a user (with or without a password) */
        post: operations["postApiUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user */
        get: operations["getApiUsersById"];
        put?: never;
        post?: never;
        /** Delete a user with their profile, OAuth links, codes and tokens */
        delete: operations["deleteApiUsersById"];
        options?: never;
        head?: never;
        /**
         * Change role, active flag, names, or mark the email address verified
         * @description A role change or deactivation ends the user's tokens at once. A change that would leave no active admin is refused with 409.
         */
        patch: operations["patchApiUsersById"];
        trace?: never;
    };
    "/api/users/{id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's live sessions */
        get: operations["getApiUsersByIdSessions"];
        put?: never;
        post?: never;
        /** End every session of a user */
        delete: operations["deleteApiUsersByIdSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}/sessions/{sid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one of a user's sessions */
        delete: operations["deleteApiUsersByIdSessionsBySid"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's API keys */
        get: operations["getApiUsersByIdApiKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of a user's API keys */
        delete: operations["deleteApiUsersByIdApiKeysByKeyId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}/2fa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a user's second factor (TOTP and recovery codes) and end their sessions */
        delete: operations["deleteApiUsersById2fa"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List collections */
        get: operations["getApiCollections"];
        put?: never;
        /** Create a collection */
        post: operations["postApiCollections"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a collection (the fields given) */
        put: operations["putApiCollectionsById"];
        post?: never;
        /** Delete a collection (its items stay, without a collection) */
        delete: operations["deleteApiCollectionsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List content the caller may see (viewers: published only; authors: published and their own) */
        get: operations["getApiContent"];
        put?: never;
        /** Create an item (draft unless another status is given and allowed) */
        post: operations["postApiContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/content/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One item */
        get: operations["getApiContentById"];
        /** Change an item (the fields given) */
        put: operations["putApiContentById"];
        post?: never;
        /** Delete an item */
        delete: operations["deleteApiContentById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/activity-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The activity log, newest first (filter by action, user and time range) */
        get: operations["getApiActivityLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every plugin (email, otp-login, oauth-providers) with its settings, secrets masked */
        get: operations["getApiPlugins"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One plugin, secrets masked */
        get: operations["getApiPluginsByName"];
        /** Switch a plugin on or off and/or change its settings */
        put: operations["putApiPluginsByName"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/outbound-mail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Outbound mail, newest first: address, subject, status and attempts (never the body: it holds codes and links) */
        get: operations["getApiOutboundMail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings/security": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Token lifetime, refresh grace, registration switch and session lifetime, each with its source */
        get: operations["getApiSettingsSecurity"];
        /** Store admin values (a value under an environment variable stays inactive) */
        put: operations["putApiSettingsSecurity"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The token signing keys still verifying: the service’s, newest first, then the OpenID Provider’s */
        get: operations["getApiSettingsKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings/keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make new signing keys (the service’s under an asymmetric JWT_ALGORITHM, the OpenID Provider’s always), used at once by every instance; older keys verify until their tokens are past */
        post: operations["postApiSettingsKeysRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth-clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The registered applications, oldest first (never a secret) */
        get: operations["getApiOauthClients"];
        put?: never;
        /** Register an application (a confidential one gets its secret, shown this once) */
        post: operations["postApiOauthClients"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth-clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One registered application (never its secret) */
        get: operations["getApiOauthClientsById"];
        put?: never;
        post?: never;
        /** Remove an application: every grant, consent and token it holds ends at once */
        delete: operations["deleteApiOauthClientsById"];
        options?: never;
        head?: never;
        /** Change an application; what is not sent is kept */
        patch: operations["patchApiOauthClientsById"];
        trace?: never;
    };
    "/api/oauth-clients/{id}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new secret for a confidential application, shown this once; the old one stops at once */
        post: operations["postApiOauthClientsByIdSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sso/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The single sign-on providers (no secrets) */
        get: operations["getApiSsoProviders"];
        put?: never;
        /** Add a single sign-on provider; an OIDC issuer is discovered and checked first */
        post: operations["postApiSsoProviders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sso/providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One single sign-on provider (no secrets) */
        get: operations["getApiSsoProvidersById"];
        put?: never;
        post?: never;
        /** Remove a single sign-on provider and the identities linked through it */
        delete: operations["deleteApiSsoProvidersById"];
        options?: never;
        head?: never;
        /** Change a single sign-on provider (the slug and protocol stay) */
        patch: operations["patchApiSsoProvidersById"];
        trace?: never;
    };
    "/api/webhooks/deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Attempt a delivery again now (same webhook-id) */
        post: operations["postApiWebhooksDeliveriesByIdRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The webhook endpoints */
        get: operations["getApiWebhooks"];
        put?: never;
        /** Add a webhook endpoint; its signing secret is in the answer, once */
        post: operations["postApiWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook endpoint */
        get: operations["getApiWebhooksById"];
        put?: never;
        post?: never;
        /** Delete a webhook endpoint and its deliveries */
        delete: operations["deleteApiWebhooksById"];
        options?: never;
        head?: never;
        /** Change a webhook endpoint (enabling it again clears why it was disabled) */
        patch: operations["patchApiWebhooksById"];
        trace?: never;
    };
    "/api/webhooks/{id}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new signing secret; the previous one signs beside it for 24 hours */
        post: operations["postApiWebhooksByIdSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a webhook.test event to this endpoint */
        post: operations["postApiWebhooksByIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An endpoint’s deliveries, newest first */
        get: operations["getApiWebhooksByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description An error: `{ error }`, sometimes with details of that error beside it */
        Error: {
            error: string;
        };
        /** @description Validation failed: `{ error: "Validation failed", errors: { field: message } }` */
        ValidationError: {
            error: string;
            errors: {
                [key: string]: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description alive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealthReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "unavailable";
                        /** @enum {string} */
                        database: "ok" | "unavailable";
                        /** @enum {string} */
                        store: "ok" | "unavailable";
                        /** @enum {string} */
                        storeKind: "memory" | "redis";
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not ready; Retry-After: 5 */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "unavailable";
                        /** @enum {string} */
                        database: "ok" | "unavailable";
                        /** @enum {string} */
                        store: "ok" | "unavailable";
                        /** @enum {string} */
                        storeKind: "memory" | "redis";
                    };
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWellKnownJwksJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JWK Set, Cache-Control: public, max-age=300 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: ({
                            kty: string;
                            kid: string;
                            alg: string;
                            use: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiUserProfilesSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description fields (hidden ones marked hidden: true), registrationFields and the built-in fields */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        fields: {
                            name: string;
                            label: string;
                            /** @enum {string} */
                            type: "string" | "number" | "boolean" | "select" | "multiselect" | "radio" | "textarea" | "json" | "object";
                            required: boolean;
                            hidden: boolean;
                            options?: string[];
                            validation?: {
                                min?: number;
                                max?: number;
                                pattern?: string;
                            };
                            default?: unknown;
                            fields?: {
                                name: string;
                                label: string;
                                /** @enum {string} */
                                type: "string" | "number" | "boolean" | "select" | "multiselect" | "radio" | "textarea" | "json" | "object";
                                required: boolean;
                                hidden: boolean;
                                options?: string[];
                                validation?: {
                                    min?: number;
                                    max?: number;
                                    pattern?: string;
                                };
                                default?: unknown;
                            }[];
                        }[];
                        registrationFields: string[];
                        builtInFields: {
                            name: string;
                            /** @enum {string} */
                            type: "string" | "integer";
                            description: string;
                        }[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiUserProfilesByUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description profile */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        userId: string;
                        customData: {
                            [key: string]: unknown;
                        };
                        profile: {
                            display_name?: string | null;
                            bio?: string | null;
                            company?: string | null;
                            job_title?: string | null;
                            website?: string | null;
                            location?: string | null;
                            date_of_birth?: number | null;
                        };
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not the owner */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putApiUserProfilesByUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    customData?: unknown;
                    profile?: {
                        display_name?: string | null;
                        bio?: string | null;
                        company?: string | null;
                        job_title?: string | null;
                        website?: string | null;
                        location?: string | null;
                        date_of_birth?: number | null;
                    };
                };
            };
        };
        responses: {
            /** @description profile */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        userId: string;
                        customData: {
                            [key: string]: unknown;
                        };
                        profile: {
                            display_name?: string | null;
                            bio?: string | null;
                            company?: string | null;
                            job_title?: string | null;
                            website?: string | null;
                            location?: string | null;
                            date_of_birth?: number | null;
                        };
                    };
                };
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not the owner */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                    redirect?: string;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                    password: string;
                    redirect?: string;
                };
            };
        };
        responses: {
            /** @description Login response (sets auth_token and csrf_token), or the two-factor challenge (no token, no cookie) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            /** @enum {string} */
                            role: "admin" | "editor" | "author" | "viewer";
                        } & {
                            [key: string]: unknown;
                        };
                        token: string;
                    } | {
                        /** @enum {boolean} */
                        twoFactorRequired: true;
                        /** @description opaque; answer it at POST /auth/2fa/verify within 5 minutes */
                        challenge: string;
                        /** @description the kinds the user has: totp, recovery, passkey */
                        methods: string[];
                    };
                };
            };
            /** @description form post: to /admin or the redirect field, or to /auth/2fa for the second step */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Invalid email or password */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                    username?: string;
                    firstName?: string;
                    lastName?: string;
                } & {
                    [key: string]: unknown;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                    password: string;
                    username?: string;
                    firstName?: string;
                    lastName?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Login response; sets the cookies */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            /** @enum {string} */
                            role: "admin" | "editor" | "author" | "viewer";
                        } & {
                            [key: string]: unknown;
                        };
                        token: string;
                    };
                };
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Registration is currently disabled */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description User with this email or username already exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            /** @enum {string} */
                            role: "admin" | "editor" | "author" | "viewer";
                            /** @description the address was proven (CONTRACT 12) */
                            emailVerified: boolean;
                            /** @description TOTP is on (CONTRACT 9) */
                            twoFactorEnabled: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthRefresh: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Refresh response; sets the cookies */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: string;
                        expiresIn: number;
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or expired token / User is not active */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid CSRF token (authenticated by cookie without the X-CSRF-Token header or _csrf field); Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description signed out; cookies cleared */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description form post: to the sign-in page */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid CSRF token (authenticated by cookie without the X-CSRF-Token header or _csrf field); Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogoutAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description signed out everywhere */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid CSRF token (authenticated by cookie without the X-CSRF-Token header or _csrf field); Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthSeedAdmin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string;
                    password?: string;
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        user: {
                            id: string;
                            email: string;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            /** @enum {string} */
                            role: "admin" | "editor" | "author" | "viewer";
                        };
                    };
                };
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description An admin user already exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthOtpRequest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    redirect?: string;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                    redirect?: string;
                };
            };
        };
        responses: {
            /** @description the same answer for every email */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        expiresIn: number;
                    };
                };
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description 404 "OTP login is not enabled" while the otp-login plugin is inactive */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many codes for this email this hour, or too many requests from this client (10 per minute) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no mail service is configured */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthOtpVerify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    code: string;
                    redirect?: string;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                    code: string;
                    redirect?: string;
                };
            };
        };
        responses: {
            /** @description Login response (user with custom fields), or the two-factor challenge */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            /** @enum {string} */
                            role: "admin" | "editor" | "author" | "viewer";
                        } & {
                            [key: string]: unknown;
                        };
                        token: string;
                    } | {
                        /** @enum {boolean} */
                        twoFactorRequired: true;
                        /** @description opaque; answer it at POST /auth/2fa/verify within 5 minutes */
                        challenge: string;
                        /** @description the kinds the user has: totp, recovery, passkey */
                        methods: string[];
                    };
                };
            };
            /** @description form post: to /admin or the redirect field */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed (the code must have the configured length) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Invalid or expired code */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        attemptsRemaining: number;
                    };
                };
            };
            /** @description 404 "OTP login is not enabled" while the otp-login plugin is inactive */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthSignInMagicLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    callbackURL?: string;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                    callbackURL?: string;
                };
            };
        };
        responses: {
            /** @description the same answer for every valid email */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        status: true;
                    };
                };
            };
            /** @description validation failed (not a valid email) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limited (per IP or per email) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 "Magic link sign-in is not configured" while EXTERNAL_AUTH_SECRET or a mail service is missing */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthMagicLinkVerify: {
        parameters: {
            query: {
                token: string;
                callbackURL?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description to callbackURL (or /admin) signed in, or to /auth/login?notice=magic_link_invalid */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description the session store is unavailable (the link stays usable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthOauthAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description linked accounts, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accounts: {
                            provider: string;
                            providerAccountId: string;
                            email: string | null;
                            /** @description ISO 8601 */
                            linkedAt: string;
                        }[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthOauthLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    provider: string;
                };
                "application/x-www-form-urlencoded": {
                    provider: string;
                };
            };
        };
        responses: {
            /** @description where to send the browser */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        redirectUrl: string;
                    };
                };
            };
            /** @description form post: to the provider (refusals: /admin/profile/security?notice=<code>) */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description "OAuth provider "<name>" is not configured or not enabled" */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required", with stepUp: true */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Unknown OAuth provider" */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthOauthUnlink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    provider: string;
                };
                "application/x-www-form-urlencoded": {
                    provider: string;
                };
            };
        };
        responses: {
            /** @description unlinked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description form post: /admin/profile/security?notice=<code> */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description "Cannot unlink the only authentication method. Set a password first." (no password and this is the only link), or validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid CSRF token (authenticated by cookie without the X-CSRF-Token header or _csrf field); Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not linked, or unknown provider */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthOauthByProvider: {
        parameters: {
            query?: {
                /** @description same-origin path to land on after signing in (default /admin) */
                redirect?: string;
            };
            header?: never;
            path: {
                /** @description one of: github, google */
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description to the provider authorization page */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description "OAuth provider "<name>" is not configured or not enabled" */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description "Unknown OAuth provider" */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthOauthByProviderCallback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description one of: github, google */
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success: auth_token + csrf_token cookies (SameSite=Lax) and /admin, or the state's redirect; a link: /admin/profile/security with its notice and no cookies; failure: /auth/login with its notice (or /admin/profile/security when linking) */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description "Unknown OAuth provider" */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthSso: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    redirect?: string;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                    redirect?: string;
                };
            };
        };
        responses: {
            /** @description where to send the browser */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        redirectUrl: string;
                    };
                };
            };
            /** @description pages: to the provider */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description No single sign-on for this address */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthSsoBySlug: {
        parameters: {
            query?: {
                redirect?: string;
            };
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description to the provider */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description no such provider */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthSsoBySlugCallback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description signed in (or the second step), or refused */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthSsoBySlugAcs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    SAMLResponse: string;
                    RelayState?: string;
                };
                "application/x-www-form-urlencoded": {
                    SAMLResponse: string;
                    RelayState?: string;
                };
            };
        };
        responses: {
            /** @description signed in (or the second step), or refused */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description live sessions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sessions: {
                            id: string;
                            /** @description password, otp, magic_link, github, google, passkey, registration */
                            method: string;
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601; moves at refresh, and at most once a minute on other requests */
                            lastUsedAt: string;
                            /** @description ISO 8601: the absolute end, however often it is refreshed */
                            expiresAt: string;
                            ip: string | null;
                            userAgent: string | null;
                            browser: string | null;
                            os: string | null;
                            /** @description this request is signed in by this session */
                            current: boolean;
                        }[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthSessionsRevokeOthers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description how many ended */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        revoked: number;
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true (the sign-in is older than 10 minutes) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAuthSessionsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true (the sign-in is older than 10 minutes) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no live session of yours has that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description your keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        apiKeys: {
                            id: string;
                            name: string;
                            /** @description the first characters of the key (ak_ and six more), to tell keys apart */
                            prefix: string;
                            permissions: ("manage:users" | "manage:collections" | "create:content" | "edit:any-content" | "edit:own-content" | "publish:content" | "delete:any-content" | "delete:own-content" | "view:activity-logs" | "manage:plugins" | "manage:settings" | "access:admin")[];
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601; null: never */
                            expiresAt: string | null;
                            /** @description ISO 8601; moves at most once a minute */
                            lastUsedAt: string | null;
                        }[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed with an API key */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description a subset of the owner's role's permissions; default all of them */
                    permissions?: ("manage:users" | "manage:collections" | "create:content" | "edit:any-content" | "edit:own-content" | "publish:content" | "delete:any-content" | "delete:own-content" | "view:activity-logs" | "manage:plugins" | "manage:settings" | "access:admin")[];
                    /** @description absent: the key never expires */
                    expiresInDays?: number;
                };
            };
        };
        responses: {
            /** @description the key, and what it is */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        apiKey: {
                            id: string;
                            name: string;
                            /** @description the first characters of the key (ak_ and six more), to tell keys apart */
                            prefix: string;
                            permissions: ("manage:users" | "manage:collections" | "create:content" | "edit:any-content" | "edit:own-content" | "publish:content" | "delete:any-content" | "delete:own-content" | "view:activity-logs" | "manage:plugins" | "manage:settings" | "access:admin")[];
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601; null: never */
                            expiresAt: string | null;
                            /** @description ISO 8601; moves at most once a minute */
                            lastUsedAt: string | null;
                        };
                        /** @description the key itself (ak_…): shown this once, never again */
                        key: string;
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true, or "Not allowed with an API key" */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description you hold the most keys allowed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAuthApiKeysById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed with an API key */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no live key of yours has that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthConnectedApps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description your connected applications, latest consent first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        apps: {
                            clientId: string;
                            name: string;
                            /** @description what the user allowed it */
                            scopes: string[];
                            /** @description ISO 8601: the latest consent */
                            grantedAt: string;
                        }[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAuthConnectedAppsByClientId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid CSRF token (authenticated by cookie without the X-CSRF-Token header or _csrf field); Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description you have not connected that application */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuth2faTotpSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the secret, not yet active */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description base32, 20 bytes */
                        secret: string;
                        otpauthUrl: string;
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true (prove it again at POST /auth/step-up); "Two-factor enrolment required" does not apply here */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Two-factor authentication is already on */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuth2faTotpConfirm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                };
            };
        };
        responses: {
            /** @description two-factor is on */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description shown this once; each works once */
                        recoveryCodes: string[];
                    };
                };
            };
            /** @description Invalid code, or no setup started */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid CSRF token (authenticated by cookie without the X-CSRF-Token header or _csrf field); Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description already on */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuth2faRecoveryCodes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the new codes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description shown this once; each works once */
                        recoveryCodes: string[];
                    };
                };
            };
            /** @description Two-factor authentication is not on */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true (prove it again at POST /auth/step-up); "Two-factor enrolment required" does not apply here */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuth2faDisable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description off */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Two-factor authentication is not on */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true (prove it again at POST /auth/step-up); "Two-factor enrolment required" does not apply here */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuth2faVerify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    challenge?: string;
                    code?: string;
                    recoveryCode?: string;
                    passkey?: {
                        id: string;
                        rawId: string;
                        /** @enum {string} */
                        type: "public-key";
                        /** @enum {string} */
                        authenticatorAttachment?: "platform" | "cross-platform";
                        /** @description clientExtensionResults, as the browser reports them */
                        clientExtensionResults?: {
                            [key: string]: unknown;
                        };
                        response: {
                            clientDataJSON: string;
                            authenticatorData: string;
                            signature: string;
                            userHandle?: string;
                        };
                    };
                    redirect?: string;
                };
                "application/x-www-form-urlencoded": {
                    challenge?: string;
                    code?: string;
                    recoveryCode?: string;
                    passkey?: {
                        id: string;
                        rawId: string;
                        /** @enum {string} */
                        type: "public-key";
                        /** @enum {string} */
                        authenticatorAttachment?: "platform" | "cross-platform";
                        /** @description clientExtensionResults, as the browser reports them */
                        clientExtensionResults?: {
                            [key: string]: unknown;
                        };
                        response: {
                            clientDataJSON: string;
                            authenticatorData: string;
                            signature: string;
                            userHandle?: string;
                        };
                    };
                    redirect?: string;
                };
            };
        };
        responses: {
            /** @description Login response; sets auth_token and csrf_token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            /** @enum {string} */
                            role: "admin" | "editor" | "author" | "viewer";
                        } & {
                            [key: string]: unknown;
                        };
                        token: string;
                    };
                };
            };
            /** @description form post: to /admin or the redirect kept from the first step */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Invalid code */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the account is blocked for a while (too many wrong passwords or codes) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthStepUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password?: string;
                    code?: string;
                    recoveryCode?: string;
                    passkey?: {
                        id: string;
                        rawId: string;
                        /** @enum {string} */
                        type: "public-key";
                        /** @enum {string} */
                        authenticatorAttachment?: "platform" | "cross-platform";
                        /** @description clientExtensionResults, as the browser reports them */
                        clientExtensionResults?: {
                            [key: string]: unknown;
                        };
                        response: {
                            clientDataJSON: string;
                            authenticatorData: string;
                            signature: string;
                            userHandle?: string;
                        };
                    };
                    redirect?: string;
                };
                "application/x-www-form-urlencoded": {
                    password?: string;
                    code?: string;
                    recoveryCode?: string;
                    passkey?: {
                        id: string;
                        rawId: string;
                        /** @enum {string} */
                        type: "public-key";
                        /** @enum {string} */
                        authenticatorAttachment?: "platform" | "cross-platform";
                        /** @description clientExtensionResults, as the browser reports them */
                        clientExtensionResults?: {
                            [key: string]: unknown;
                        };
                        response: {
                            clientDataJSON: string;
                            authenticatorData: string;
                            signature: string;
                            userHandle?: string;
                        };
                    };
                    redirect?: string;
                };
            };
        };
        responses: {
            /** @description the renewed token; cookies renewed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            /** @description form post: back to the redirect field */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed, the proof is not right (named in errors), or a password alone from a user with a second factor (a code, recovery code or passkey is needed) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid CSRF token (authenticated by cookie without the X-CSRF-Token header or _csrf field); Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the account is blocked for a while */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthStepUpPasskeyOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description request options (as for a sign-in's second step) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        rpId: string;
                        challenge: string;
                        timeout: number;
                        userVerification: string;
                        allowCredentials?: {
                            id: string;
                            /** @enum {string} */
                            type: "public-key";
                            transports?: string[];
                        }[];
                    };
                };
            };
            /** @description You have no passkey to confirm with */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid CSRF token (authenticated by cookie without the X-CSRF-Token header or _csrf field); Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthVerifyEmail: {
        parameters: {
            query: {
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description to /auth/login with a notice: done, or one message for a link that is unknown, tampered, used or expired (notice=email_verified or email_link_invalid) */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthVerifyEmailResend: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the same answer whether or not a mail went out */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid CSRF token (authenticated by cookie without the X-CSRF-Token header or _csrf field); Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthEmailChange: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    newEmail: string;
                    currentPassword?: string;
                };
            };
        };
        responses: {
            /** @description requested */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description validation failed (newEmail, currentPassword) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true (the sign-in is older than 10 minutes) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limited, or the account is blocked after wrong passwords */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currentPassword: string;
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description changed; a new token for the same session (cookies renewed when signed in by cookie) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            /** @description validation failed (currentPassword wrong, newPassword too weak or too short) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true (the sign-in is older than 10 minutes) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the password was changed meanwhile by another request */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limited, or the account is blocked after wrong passwords */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthEmailConfirm: {
        parameters: {
            query: {
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description to /auth/login with a notice: done, or one message for a link that is unknown, tampered, used or expired (notice=email_changed or email_link_invalid) */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAuthAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted; cookies cleared */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true (the sign-in is older than 10 minutes) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description you are the last active admin */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthAccountExport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the export (Content-Disposition: attachment) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description ISO 8601 */
                        exportedAt: string;
                        account: {
                            id: string;
                            email: string;
                            emailVerified: boolean;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            role: string;
                            active: boolean;
                            hasPassword: boolean;
                            createdAt: string;
                            lastLoginAt: string | null;
                        };
                        profile: {
                            [key: string]: unknown;
                        } | null;
                        linkedAccounts: {
                            provider: string;
                            providerAccountId: string;
                            email: string | null;
                            linkedAt: string;
                        }[];
                        sessions: {
                            [key: string]: unknown;
                        }[];
                        passkeys: {
                            [key: string]: unknown;
                        }[];
                        activity: {
                            action: string;
                            createdAt: string;
                            ip: string | null;
                            userAgent: string | null;
                            details: {
                                [key: string]: unknown;
                            } | null;
                        }[];
                        /** @description true when more than the newest 5000 activity rows exist */
                        activityTruncated: boolean;
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthPasskeysRegisterOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description creation options */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        rp: {
                            id: string;
                            name: string;
                        };
                        user: {
                            id: string;
                            name: string;
                            displayName: string;
                        };
                        challenge: string;
                        pubKeyCredParams: {
                            /** @enum {string} */
                            type: "public-key";
                            alg: number;
                        }[];
                        timeout: number;
                        excludeCredentials: {
                            id: string;
                            /** @enum {string} */
                            type: "public-key";
                            transports?: string[];
                        }[];
                        authenticatorSelection: {
                            residentKey: string;
                            userVerification: string;
                            requireResidentKey?: boolean;
                        };
                        attestation: string;
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true (the sign-in is older than 10 minutes) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description You have as many passkeys as an account may have. Remove one first. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Passkeys need a host name in BASE_URL": BASE_URL names an IP address, which WebAuthn does not accept as relying party */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthPasskeysRegisterVerify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    response: {
                        id: string;
                        rawId: string;
                        /** @enum {string} */
                        type: "public-key";
                        /** @enum {string} */
                        authenticatorAttachment?: "platform" | "cross-platform";
                        /** @description clientExtensionResults, as the browser reports them */
                        clientExtensionResults?: {
                            [key: string]: unknown;
                        };
                        response: {
                            clientDataJSON: string;
                            attestationObject: string;
                            authenticatorData?: string;
                            transports?: string[];
                            publicKeyAlgorithm?: number;
                            publicKey?: string;
                        };
                    };
                    name?: string;
                };
            };
        };
        responses: {
            /** @description the new passkey */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        passkey: {
                            id: string;
                            name: string;
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601 of the last sign-in with it; null before the first */
                            lastUsedAt: string | null;
                        };
                    };
                };
            };
            /** @description validation failed, "This passkey registration expired or was already used. Please start again." or "Passkey registration failed" (nothing stored) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true (the sign-in is older than 10 minutes) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "This passkey is already registered" or "You have as many passkeys as an account may have. Remove one first." */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Passkeys need a host name in BASE_URL": BASE_URL names an IP address, which WebAuthn does not accept as relying party */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthPasskeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description passkeys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        passkeys: {
                            id: string;
                            name: string;
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601 of the last sign-in with it; null before the first */
                            lastUsedAt: string | null;
                        }[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed with an API key (this operation takes none) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Passkeys need a host name in BASE_URL": BASE_URL names an IP address, which WebAuthn does not accept as relying party */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAuthPasskeysById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Recent sign-in required" with stepUp: true (the sign-in is older than 10 minutes) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Passkey not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Passkeys need a host name in BASE_URL": BASE_URL names an IP address, which WebAuthn does not accept as relying party */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthPasskeysLoginOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string;
                };
            };
        };
        responses: {
            /** @description request options */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        rpId: string;
                        challenge: string;
                        timeout: number;
                        userVerification: string;
                        allowCredentials?: {
                            id: string;
                            /** @enum {string} */
                            type: "public-key";
                            transports?: string[];
                        }[];
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (30 per minute) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Passkeys need a host name in BASE_URL": BASE_URL names an IP address, which WebAuthn does not accept as relying party */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthPasskeysLoginVerify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    response: {
                        id: string;
                        rawId: string;
                        /** @enum {string} */
                        type: "public-key";
                        /** @enum {string} */
                        authenticatorAttachment?: "platform" | "cross-platform";
                        /** @description clientExtensionResults, as the browser reports them */
                        clientExtensionResults?: {
                            [key: string]: unknown;
                        };
                        response: {
                            clientDataJSON: string;
                            authenticatorData: string;
                            signature: string;
                            userHandle?: string;
                        };
                    };
                    redirect?: string;
                };
            };
        };
        responses: {
            /** @description Login response (user with custom fields), or the second step's challenge */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            /** @enum {string} */
                            role: "admin" | "editor" | "author" | "viewer";
                        } & {
                            [key: string]: unknown;
                        };
                        token: string;
                    } | {
                        /** @enum {boolean} */
                        twoFactorRequired: true;
                        /** @description opaque; answer it at POST /auth/2fa/verify within 5 minutes */
                        challenge: string;
                        /** @description the kinds the user has: totp, recovery, passkey */
                        methods: string[];
                    };
                };
            };
            /** @description page request (Accept: text/html): to the redirect field, /admin, or /auth/2fa */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description "Passkey sign-in failed", whatever the reason (expired or reused challenge, unknown, removed or another account's passkey, wrong origin or RP ID, counter gone backwards, bad signature) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (30 per minute) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Passkeys need a host name in BASE_URL": BASE_URL names an IP address, which WebAuthn does not accept as relying party */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuth2faPasskeyOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the challenge of the sign-in answer; a page leaves it out (its cookie carries it) */
                    challenge?: string;
                };
            };
        };
        responses: {
            /** @description request options */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        rpId: string;
                        challenge: string;
                        timeout: number;
                        userVerification: string;
                        allowCredentials?: {
                            id: string;
                            /** @enum {string} */
                            type: "public-key";
                            transports?: string[];
                        }[];
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description "Passkey sign-in failed", whatever the reason (expired or reused challenge, unknown, removed or another account's passkey, wrong origin or RP ID, counter gone backwards, bad signature) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (30 per minute) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Passkeys need a host name in BASE_URL": BASE_URL names an IP address, which WebAuthn does not accept as relying party */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthRequestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
                "application/x-www-form-urlencoded": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description the same answer for every email */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description form post: to /auth/forgot-password with the same message */
            303: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthResetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                    password: string;
                };
                "application/x-www-form-urlencoded": {
                    token: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description password changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description invalid or expired token, or validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body neither JSON nor urlencoded */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiUsersImport: {
        parameters: {
            query?: {
                /** @description create (default) skips existing emails; upsert updates them */
                mode?: "create" | "upsert";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-ndjson": {
                    email: string;
                    username?: string;
                    /** @enum {string} */
                    role?: "admin" | "editor" | "author" | "viewer";
                    active?: boolean;
                    emailVerified?: boolean;
                    firstName?: string | null;
                    lastName?: string | null;
                    profile?: {
                        [key: string]: unknown;
                    };
                    /** Format: date-time */
                    createdAt?: string;
                    password?: string;
                    /** @description bcrypt ($2a$, $2b$, $2y$), Argon2 ($argon2id$, $argon2i$), scrypt ($scrypt$ln=…,r=…,p=…$…), PBKDF2 ($pbkdf2-sha256$, $pbkdf2-sha512$ as passlib writes them, Django pbkdf2_sha256$…) or this service’s own pbkdf2:… */
                    passwordHash?: string;
                };
                "application/json": {
                    email: string;
                    username?: string;
                    /** @enum {string} */
                    role?: "admin" | "editor" | "author" | "viewer";
                    active?: boolean;
                    emailVerified?: boolean;
                    firstName?: string | null;
                    lastName?: string | null;
                    profile?: {
                        [key: string]: unknown;
                    };
                    /** Format: date-time */
                    createdAt?: string;
                    password?: string;
                    /** @description bcrypt ($2a$, $2b$, $2y$), Argon2 ($argon2id$, $argon2i$), scrypt ($scrypt$ln=…,r=…,p=…$…), PBKDF2 ($pbkdf2-sha256$, $pbkdf2-sha512$ as passlib writes them, Django pbkdf2_sha256$…) or this service’s own pbkdf2:… */
                    passwordHash?: string;
                }[];
            };
        };
        responses: {
            /** @description the counts and the refused records */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created: number;
                        updated: number;
                        skipped: number;
                        failed: number;
                        /** @description each refused record (the first 1,000); the counts count them all */
                        errors: {
                            /** @description the line the record starts on */
                            line: number;
                            email: string | null;
                            error: string;
                        }[];
                    };
                };
            };
            /** @description bad mode */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, Recent sign-in required (`stepUp: true`), or an API key (refused here) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 50 MB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be one of application/x-ndjson, application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiUsersExport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description one user a line */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": {
                        email: string;
                        username?: string;
                        /** @enum {string} */
                        role?: "admin" | "editor" | "author" | "viewer";
                        active?: boolean;
                        emailVerified?: boolean;
                        firstName?: string | null;
                        lastName?: string | null;
                        profile?: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        createdAt?: string;
                        password?: string;
                        /** @description bcrypt ($2a$, $2b$, $2y$), Argon2 ($argon2id$, $argon2i$), scrypt ($scrypt$ln=…,r=…,p=…$…), PBKDF2 ($pbkdf2-sha256$, $pbkdf2-sha512$ as passlib writes them, Django pbkdf2_sha256$…) or this service’s own pbkdf2:… */
                        passwordHash?: string;
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, Recent sign-in required (`stepUp: true`), or an API key (refused here) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiUsers: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
                q?: string;
                role?: "admin" | "editor" | "author" | "viewer";
                verified?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of users */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        users: {
                            id: string;
                            email: string;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            /** @enum {string} */
                            role: "admin" | "editor" | "author" | "viewer";
                            active: boolean;
                            emailVerified: boolean;
                            createdAt: string;
                        }[];
                        /** @description users matching, counted up to 10000 (1000 for a search); past that, total is the limit and the X-Total-Exact header says false */
                        total: number;
                        page: number;
                        limit: number;
                    };
                };
            };
            /** @description bad paging or filter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password?: string;
                    username?: string;
                    firstName?: string | null;
                    lastName?: string | null;
                    /** @enum {string} */
                    role?: "admin" | "editor" | "author" | "viewer";
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            /** @enum {string} */
                            role: "admin" | "editor" | "author" | "viewer";
                            active: boolean;
                            emailVerified: boolean;
                            createdAt: string;
                        };
                    };
                };
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description email or username taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiUsersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            /** @enum {string} */
                            role: "admin" | "editor" | "author" | "viewer";
                            active: boolean;
                            emailVerified: boolean;
                            createdAt: string;
                        };
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiUsersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description would leave no active admin */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchApiUsersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role?: "admin" | "editor" | "author" | "viewer";
                    active?: boolean;
                    username?: string;
                    firstName?: string | null;
                    lastName?: string | null;
                    emailVerified?: boolean;
                };
            };
        };
        responses: {
            /** @description the changed user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            username: string;
                            firstName: string | null;
                            lastName: string | null;
                            /** @enum {string} */
                            role: "admin" | "editor" | "author" | "viewer";
                            active: boolean;
                            emailVerified: boolean;
                            createdAt: string;
                        };
                    };
                };
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description would leave no active admin, or username taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiUsersByIdSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description live sessions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sessions: {
                            id: string;
                            /** @description password, otp, magic_link, github, google, passkey, registration */
                            method: string;
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601; moves at refresh, and at most once a minute on other requests */
                            lastUsedAt: string;
                            /** @description ISO 8601: the absolute end, however often it is refreshed */
                            expiresAt: string;
                            ip: string | null;
                            userAgent: string | null;
                            browser: string | null;
                            os: string | null;
                            /** @description this request is signed in by this session */
                            current: boolean;
                        }[];
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiUsersByIdSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description how many ended */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        revoked: number;
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiUsersByIdSessionsBySid: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                sid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such user, or no live session of theirs with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiUsersByIdApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description their keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        apiKeys: {
                            id: string;
                            name: string;
                            /** @description the first characters of the key (ak_ and six more), to tell keys apart */
                            prefix: string;
                            permissions: ("manage:users" | "manage:collections" | "create:content" | "edit:any-content" | "edit:own-content" | "publish:content" | "delete:any-content" | "delete:own-content" | "view:activity-logs" | "manage:plugins" | "manage:settings" | "access:admin")[];
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601; null: never */
                            expiresAt: string | null;
                            /** @description ISO 8601; moves at most once a minute */
                            lastUsedAt: string | null;
                        }[];
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiUsersByIdApiKeysByKeyId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such user, or no live key of theirs with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiUsersById2fa: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description reset; the user is mailed a notice */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description User not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiCollections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description all collections */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        collections: {
                            id: string;
                            name: string;
                            description: string | null;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiCollections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        collection: {
                            id: string;
                            name: string;
                            description: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description name taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putApiCollectionsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        collection: {
                            id: string;
                            name: string;
                            description: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such collection */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description name taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiCollectionsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such collection */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiContent: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
                status?: "draft" | "review" | "published";
                collectionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of items */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        content: {
                            id: string;
                            title: string;
                            body: string | null;
                            /** @enum {string} */
                            status: "draft" | "review" | "published";
                            collectionId: string | null;
                            authorId: string | null;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                        total: number;
                    };
                };
            };
            /** @description bad paging or filter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiContent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    body?: string | null;
                    /** @enum {string} */
                    status?: "draft" | "review" | "published";
                    collectionId?: string | null;
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        content: {
                            id: string;
                            title: string;
                            body: string | null;
                            /** @enum {string} */
                            status: "draft" | "review" | "published";
                            collectionId: string | null;
                            authorId: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiContentById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the item */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        content: {
                            id: string;
                            title: string;
                            body: string | null;
                            /** @enum {string} */
                            status: "draft" | "review" | "published";
                            collectionId: string | null;
                            authorId: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such item */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putApiContentById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    body?: string | null;
                    /** @enum {string} */
                    status?: "draft" | "review" | "published";
                    collectionId?: string | null;
                };
            };
        };
        responses: {
            /** @description changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        content: {
                            id: string;
                            title: string;
                            body: string | null;
                            /** @enum {string} */
                            status: "draft" | "review" | "published";
                            collectionId: string | null;
                            authorId: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such item */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiContentById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such item */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiActivityLogs: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
                action?: "auth.login" | "auth.login_failed" | "auth.logout" | "auth.register" | "auth.refresh" | "auth.password_reset_requested" | "auth.password_reset" | "auth.password_changed" | "auth.otp_verified" | "auth.magic_link_used" | "oauth.login" | "oauth.linked" | "oauth.unlinked" | "user.created" | "user.updated" | "user.deleted" | "settings.updated" | "plugin.updated" | "session.revoked" | "session.reuse_detected" | "auth.passkey_login" | "passkey.added" | "passkey.removed" | "auth.2fa_verified" | "auth.step_up" | "user.2fa_enabled" | "user.2fa_disabled" | "user.2fa_reset" | "user.recovery_codes_regenerated" | "user.email_verified" | "user.unverified_password_cleared" | "user.email_change_requested" | "user.email_changed" | "user.account_deleted" | "user.account_exported" | "api_key.created" | "api_key.revoked" | "signing_key.rotated" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.secret_rotated" | "oauth_client.created" | "oauth_client.updated" | "oauth_client.deleted" | "oauth.consent_granted" | "oauth.consent_revoked" | "oauth.token_reuse_detected" | "users.imported" | "users.exported" | "sso.sign_in" | "sso.account_linked" | "sso.refused" | "sso_provider.created" | "sso_provider.updated" | "sso_provider.deleted";
                userId?: string;
                since?: string;
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of entries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        logs: {
                            id: number;
                            action: string;
                            userId: string | null;
                            email: string | null;
                            ip: string | null;
                            userAgent: string | null;
                            details: {
                                [key: string]: unknown;
                            } | null;
                            createdAt: string;
                        }[];
                        total: number;
                    };
                };
            };
            /** @description bad paging or filter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiPlugins: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description plugins */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugins: {
                            /** @enum {string} */
                            name: "email" | "otp-login" | "oauth-providers";
                            active: boolean;
                            settings: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiPluginsByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the plugin */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugin: {
                            /** @enum {string} */
                            name: "email" | "otp-login" | "oauth-providers";
                            active: boolean;
                            settings: {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown plugin */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putApiPluginsByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    /** @description Merged into the stored settings and validated as a whole; null removes a key; "********" keeps a stored secret. */
                    settings?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description the plugin */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugin: {
                            /** @enum {string} */
                            name: "email" | "otp-login" | "oauth-providers";
                            active: boolean;
                            settings: {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
            /** @description validation failed (the field is named) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown plugin */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiOutboundMail: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description one page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        mails: {
                            id: string;
                            to: string;
                            subject: string;
                            /**
                             * @description pending: sent or retried soon; delivered; failed: given up (expired or a day of failures)
                             * @enum {string}
                             */
                            status: "pending" | "delivered" | "failed";
                            attempts: number;
                            createdAt: string;
                            lastAttemptAt: string | null;
                            nextAttemptAt: string | null;
                        }[];
                        total: number;
                        page: number;
                        limit: number;
                    };
                };
            };
            /** @description bad paging */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiSettingsSecurity: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the resolved settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jwtExpiresIn: {
                            value: string;
                            seconds: number;
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                        jwtRefreshGraceSeconds: {
                            value: number;
                            seconds: number;
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                        allowRegistration: {
                            value: boolean;
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                        sessionMaxAgeSeconds: {
                            value: number;
                            seconds: number;
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                        requireTwoFactorRoles: {
                            value: ("admin" | "editor" | "author" | "viewer")[];
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                        requireVerifiedEmail: {
                            value: boolean;
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putApiSettingsSecurity: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    jwtExpiresIn?: string;
                    jwtRefreshGraceSeconds?: number;
                    allowRegistration?: boolean;
                    sessionMaxAgeSeconds?: number;
                    requireTwoFactorRoles?: ("admin" | "editor" | "author" | "viewer")[];
                    requireVerifiedEmail?: boolean;
                };
            };
        };
        responses: {
            /** @description the resolved settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jwtExpiresIn: {
                            value: string;
                            seconds: number;
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                        jwtRefreshGraceSeconds: {
                            value: number;
                            seconds: number;
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                        allowRegistration: {
                            value: boolean;
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                        sessionMaxAgeSeconds: {
                            value: number;
                            seconds: number;
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                        requireTwoFactorRoles: {
                            value: ("admin" | "editor" | "author" | "viewer")[];
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                        requireVerifiedEmail: {
                            value: boolean;
                            /** @enum {string} */
                            source: "env" | "admin" | "default";
                        };
                    };
                };
            };
            /** @description validation failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiSettingsKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: {
                            kid: string;
                            /** @enum {string} */
                            algorithm: "HS256" | "EdDSA" | "ES256" | "RS256";
                            /** @description ISO 8601; null for the HS256 key (JWT_SECRET) and for OpenID Provider keys made before they rotated */
                            createdAt: string | null;
                            /** @description ISO 8601: when it stops verifying and leaves the JWKS; null while it signs */
                            retiresAt: string | null;
                            /** @description new tokens are signed with this key */
                            signing: boolean;
                            /**
                             * @description the service’s own tokens, or the OpenID Provider’s ID or access tokens (CONTRACT 14)
                             * @enum {string}
                             */
                            signs: "tokens" | "oidc-id-tokens" | "oidc-access-tokens";
                        }[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiSettingsKeysRotate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the new keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the service’s new key; null under HS256, whose tokens are signed with JWT_SECRET */
                        key: {
                            kid: string;
                            /** @enum {string} */
                            algorithm: "HS256" | "EdDSA" | "ES256" | "RS256";
                            /** @description ISO 8601; null for the HS256 key (JWT_SECRET) and for OpenID Provider keys made before they rotated */
                            createdAt: string | null;
                            /** @description ISO 8601: when it stops verifying and leaves the JWKS; null while it signs */
                            retiresAt: string | null;
                            /** @description new tokens are signed with this key */
                            signing: boolean;
                            /**
                             * @description the service’s own tokens, or the OpenID Provider’s ID or access tokens (CONTRACT 14)
                             * @enum {string}
                             */
                            signs: "tokens" | "oidc-id-tokens" | "oidc-access-tokens";
                        } | null;
                        /** @description the OpenID Provider’s signing keys now (RS256 for ID tokens, ES256 for access tokens) */
                        providerKeys: {
                            kid: string;
                            /** @enum {string} */
                            algorithm: "HS256" | "EdDSA" | "ES256" | "RS256";
                            /** @description ISO 8601; null for the HS256 key (JWT_SECRET) and for OpenID Provider keys made before they rotated */
                            createdAt: string | null;
                            /** @description ISO 8601: when it stops verifying and leaves the JWKS; null while it signs */
                            retiresAt: string | null;
                            /** @description new tokens are signed with this key */
                            signing: boolean;
                            /**
                             * @description the service’s own tokens, or the OpenID Provider’s ID or access tokens (CONTRACT 14)
                             * @enum {string}
                             */
                            signs: "tokens" | "oidc-id-tokens" | "oidc-access-tokens";
                        }[];
                        message: string;
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiOauthClients: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the applications */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        clients: {
                            clientId: string;
                            name: string;
                            redirectUris: string[];
                            postLogoutRedirectUris: string[];
                            public: boolean;
                            firstParty: boolean;
                            allowedScopes: ("openid" | "profile" | "email" | "offline_access")[];
                            grantTypes: ("authorization_code" | "refresh_token" | "client_credentials")[];
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601 */
                            updatedAt: string;
                        }[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiOauthClients: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description shown to users on the consent page and in their connected applications */
                    name: string;
                    redirectUris: string[];
                    /** @description where end_session may send the browser back to; same rule as redirectUris */
                    postLogoutRedirectUris?: string[];
                    /** @description trusted: its users are never asked for consent; default false */
                    firstParty?: boolean;
                    /** @description default all of openid, profile, email, offline_access */
                    allowedScopes?: ("openid" | "profile" | "email" | "offline_access")[];
                    /** @description default authorization_code and refresh_token; client_credentials only for a confidential client */
                    grantTypes?: ("authorization_code" | "refresh_token" | "client_credentials")[];
                    /** @description a native or single-page application without a secret (PKCE alone); default false; fixed once made */
                    public?: boolean;
                };
            };
        };
        responses: {
            /** @description the application, and its secret unless public */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        client: {
                            clientId: string;
                            name: string;
                            redirectUris: string[];
                            postLogoutRedirectUris: string[];
                            public: boolean;
                            firstParty: boolean;
                            allowedScopes: ("openid" | "profile" | "email" | "offline_access")[];
                            grantTypes: ("authorization_code" | "refresh_token" | "client_credentials")[];
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601 */
                            updatedAt: string;
                        };
                        /** @description the secret itself (cs_…): shown this once, stored hashed, never shown again */
                        clientSecret?: string;
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Insufficient permissions", "Recent sign-in required" with stepUp: true, "Not allowed with an API key", or a refused CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiOauthClientsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the application */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        client: {
                            clientId: string;
                            name: string;
                            redirectUris: string[];
                            postLogoutRedirectUris: string[];
                            public: boolean;
                            firstParty: boolean;
                            allowedScopes: ("openid" | "profile" | "email" | "offline_access")[];
                            grantTypes: ("authorization_code" | "refresh_token" | "client_credentials")[];
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601 */
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Application not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiOauthClientsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Insufficient permissions", "Recent sign-in required" with stepUp: true, "Not allowed with an API key", or a refused CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Application not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchApiOauthClientsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description shown to users on the consent page and in their connected applications */
                    name?: string;
                    redirectUris?: string[];
                    /** @description where end_session may send the browser back to; same rule as redirectUris */
                    postLogoutRedirectUris?: string[];
                    /** @description trusted: its users are never asked for consent; default false */
                    firstParty?: boolean;
                    /** @description default all of openid, profile, email, offline_access */
                    allowedScopes?: ("openid" | "profile" | "email" | "offline_access")[];
                    /** @description default authorization_code and refresh_token; client_credentials only for a confidential client */
                    grantTypes?: ("authorization_code" | "refresh_token" | "client_credentials")[];
                };
            };
        };
        responses: {
            /** @description the application as it is now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        client: {
                            clientId: string;
                            name: string;
                            redirectUris: string[];
                            postLogoutRedirectUris: string[];
                            public: boolean;
                            firstParty: boolean;
                            allowedScopes: ("openid" | "profile" | "email" | "offline_access")[];
                            grantTypes: ("authorization_code" | "refresh_token" | "client_credentials")[];
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601 */
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Insufficient permissions", "Recent sign-in required" with stepUp: true, "Not allowed with an API key", or a refused CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Application not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiOauthClientsByIdSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the application and its new secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        client: {
                            clientId: string;
                            name: string;
                            redirectUris: string[];
                            postLogoutRedirectUris: string[];
                            public: boolean;
                            firstParty: boolean;
                            allowedScopes: ("openid" | "profile" | "email" | "offline_access")[];
                            grantTypes: ("authorization_code" | "refresh_token" | "client_credentials")[];
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description ISO 8601 */
                            updatedAt: string;
                        };
                        /** @description the secret itself (cs_…): shown this once, stored hashed, never shown again */
                        clientSecret: string;
                    };
                };
            };
            /** @description A public client has no secret */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description Authentication required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description "Insufficient permissions", "Recent sign-in required" with stepUp: true, "Not allowed with an API key", or a refused CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Application not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiSsoProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the providers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        providers: {
                            id: string;
                            slug: string;
                            name: string;
                            /** @enum {string} */
                            protocol: "oidc" | "saml";
                            domains: string[];
                            enforce: boolean;
                            autoCreate: boolean;
                            /** @enum {string} */
                            defaultRole: "admin" | "editor" | "author" | "viewer";
                            oidc: {
                                issuer: string;
                                clientId: string;
                                scopes: string[];
                                /** @description the secret itself is never shown */
                                clientSecretSet: boolean;
                                redirectUri: string;
                            } | null;
                            saml: {
                                entryPoint: string;
                                idpEntityId: string;
                                /** @description SHA-256 of the IdP certificate (the certificate itself is not shown) */
                                certificateFingerprint: string;
                                entityId: string;
                                acs: string;
                                metadataUrl: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or Recent sign-in required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiSsoProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    slug: string;
                    /** @enum {string} */
                    protocol: "oidc" | "saml";
                    name: string;
                    domains: string[];
                    enforce?: boolean;
                    autoCreate?: boolean;
                    /** @enum {string} */
                    defaultRole?: "admin" | "editor" | "author" | "viewer";
                    oidc?: {
                        /** Format: uri */
                        issuer: string;
                        clientId: string;
                        clientSecret: string;
                        scopes?: string[];
                    };
                    saml?: {
                        metadataXml: string;
                    } | {
                        /** Format: uri */
                        entryPoint: string;
                        idpEntityId: string;
                        certificate: string;
                    };
                };
            };
        };
        responses: {
            /** @description the provider */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        provider: {
                            id: string;
                            slug: string;
                            name: string;
                            /** @enum {string} */
                            protocol: "oidc" | "saml";
                            domains: string[];
                            enforce: boolean;
                            autoCreate: boolean;
                            /** @enum {string} */
                            defaultRole: "admin" | "editor" | "author" | "viewer";
                            oidc: {
                                issuer: string;
                                clientId: string;
                                scopes: string[];
                                /** @description the secret itself is never shown */
                                clientSecretSet: boolean;
                                redirectUri: string;
                            } | null;
                            saml: {
                                entryPoint: string;
                                idpEntityId: string;
                                /** @description SHA-256 of the IdP certificate (the certificate itself is not shown) */
                                certificateFingerprint: string;
                                entityId: string;
                                acs: string;
                                metadataUrl: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description the issuer could not be discovered or the SAML settings are unusable */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or Recent sign-in required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the slug or a domain is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiSsoProvidersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the provider */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        provider: {
                            id: string;
                            slug: string;
                            name: string;
                            /** @enum {string} */
                            protocol: "oidc" | "saml";
                            domains: string[];
                            enforce: boolean;
                            autoCreate: boolean;
                            /** @enum {string} */
                            defaultRole: "admin" | "editor" | "author" | "viewer";
                            oidc: {
                                issuer: string;
                                clientId: string;
                                scopes: string[];
                                /** @description the secret itself is never shown */
                                clientSecretSet: boolean;
                                redirectUri: string;
                            } | null;
                            saml: {
                                entryPoint: string;
                                idpEntityId: string;
                                /** @description SHA-256 of the IdP certificate (the certificate itself is not shown) */
                                certificateFingerprint: string;
                                entityId: string;
                                acs: string;
                                metadataUrl: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or Recent sign-in required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such provider */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiSsoProvidersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or Recent sign-in required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such provider */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchApiSsoProvidersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    domains?: string[];
                    enforce?: boolean;
                    autoCreate?: boolean;
                    /** @enum {string} */
                    defaultRole?: "admin" | "editor" | "author" | "viewer";
                    oidc?: {
                        /** Format: uri */
                        issuer: string;
                        clientId: string;
                        clientSecret?: string;
                        scopes?: string[];
                    };
                    saml?: {
                        metadataXml: string;
                    } | {
                        /** Format: uri */
                        entryPoint: string;
                        idpEntityId: string;
                        certificate: string;
                    };
                };
            };
        };
        responses: {
            /** @description the provider */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        provider: {
                            id: string;
                            slug: string;
                            name: string;
                            /** @enum {string} */
                            protocol: "oidc" | "saml";
                            domains: string[];
                            enforce: boolean;
                            autoCreate: boolean;
                            /** @enum {string} */
                            defaultRole: "admin" | "editor" | "author" | "viewer";
                            oidc: {
                                issuer: string;
                                clientId: string;
                                scopes: string[];
                                /** @description the secret itself is never shown */
                                clientSecretSet: boolean;
                                redirectUri: string;
                            } | null;
                            saml: {
                                entryPoint: string;
                                idpEntityId: string;
                                /** @description SHA-256 of the IdP certificate (the certificate itself is not shown) */
                                certificateFingerprint: string;
                                entityId: string;
                                acs: string;
                                metadataUrl: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description the issuer could not be discovered or the SAML settings are unusable */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or Recent sign-in required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such provider */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a domain is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiWebhooksDeliveriesByIdRetry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the delivery, pending */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery: {
                            /** @description the webhook-id header, the same on every retry */
                            id: string;
                            event: string;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "failed";
                            attempts: number;
                            responseStatus: number | null;
                            /** @description why the last attempt failed (a status, a timeout), never the answer’s body */
                            error: string | null;
                            createdAt: string;
                            lastAttemptAt: string | null;
                            nextAttemptAt: string | null;
                        };
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or "Recent sign-in required" with stepUp: true */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Delivery not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The webhook is disabled */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the endpoints */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhooks: {
                            id: string;
                            url: string;
                            description: string | null;
                            events: string[];
                            active: boolean;
                            /** @description why the service disabled it (410, failing for days); null otherwise */
                            disabledReason: string | null;
                            /** @description ISO 8601: until when the secret before the last rotation signs too */
                            previousSecretUntil: string | null;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                    };
                };
            };
            /** @description a NUL character in the URL or the body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or "Recent sign-in required" with stepUp: true */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url: string;
                    /** @description event types, or ["*"] for all */
                    events: ("*" | "user.created" | "user.updated" | "user.deleted" | "user.email_verified" | "user.password_changed" | "user.two_factor_enabled" | "user.two_factor_disabled" | "session.created" | "session.revoked" | "session.reuse_detected" | "sign_in.failed" | "api_key.created" | "api_key.revoked" | "passkey.added" | "passkey.removed" | "users.imported")[];
                    description?: string | null;
                    active?: boolean;
                };
            };
        };
        responses: {
            /** @description the endpoint and its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: {
                            id: string;
                            url: string;
                            description: string | null;
                            events: string[];
                            active: boolean;
                            /** @description why the service disabled it (410, failing for days); null otherwise */
                            disabledReason: string | null;
                            /** @description ISO 8601: until when the secret before the last rotation signs too */
                            previousSecretUntil: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                        /** @description the signing secret (whsec_…): shown this once, never again */
                        secret: string;
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or "Recent sign-in required" with stepUp: true */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the endpoint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: {
                            id: string;
                            url: string;
                            description: string | null;
                            events: string[];
                            active: boolean;
                            /** @description why the service disabled it (410, failing for days); null otherwise */
                            disabledReason: string | null;
                            /** @description ISO 8601: until when the secret before the last rotation signs too */
                            previousSecretUntil: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or "Recent sign-in required" with stepUp: true */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Webhook not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or "Recent sign-in required" with stepUp: true */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Webhook not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchApiWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url?: string;
                    /** @description event types, or ["*"] for all */
                    events?: ("*" | "user.created" | "user.updated" | "user.deleted" | "user.email_verified" | "user.password_changed" | "user.two_factor_enabled" | "user.two_factor_disabled" | "session.created" | "session.revoked" | "session.reuse_detected" | "sign_in.failed" | "api_key.created" | "api_key.revoked" | "passkey.added" | "passkey.removed" | "users.imported")[];
                    description?: string | null;
                    active?: boolean;
                };
            };
        };
        responses: {
            /** @description the endpoint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: {
                            id: string;
                            url: string;
                            description: string | null;
                            events: string[];
                            active: boolean;
                            /** @description why the service disabled it (410, failing for days); null otherwise */
                            disabledReason: string | null;
                            /** @description ISO 8601: until when the secret before the last rotation signs too */
                            previousSecretUntil: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or "Recent sign-in required" with stepUp: true */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Webhook not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body larger than 100 kB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Content-Type must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiWebhooksByIdSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the endpoint and its new secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: {
                            id: string;
                            url: string;
                            description: string | null;
                            events: string[];
                            active: boolean;
                            /** @description why the service disabled it (410, failing for days); null otherwise */
                            disabledReason: string | null;
                            /** @description ISO 8601: until when the secret before the last rotation signs too */
                            previousSecretUntil: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                        /** @description the signing secret (whsec_…): shown this once, never again */
                        secret: string;
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or "Recent sign-in required" with stepUp: true */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Webhook not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiWebhooksByIdTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the queued delivery */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery: {
                            /** @description the webhook-id header, the same on every retry */
                            id: string;
                            event: string;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "failed";
                            attempts: number;
                            responseStatus: number | null;
                            /** @description why the last attempt failed (a status, a timeout), never the answer’s body */
                            error: string | null;
                            createdAt: string;
                            lastAttemptAt: string | null;
                            nextAttemptAt: string | null;
                        };
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or "Recent sign-in required" with stepUp: true */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Webhook not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The webhook is disabled */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiWebhooksByIdDeliveries: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description one page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: {
                            /** @description the webhook-id header, the same on every retry */
                            id: string;
                            event: string;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "failed";
                            attempts: number;
                            responseStatus: number | null;
                            /** @description why the last attempt failed (a status, a timeout), never the answer’s body */
                            error: string | null;
                            createdAt: string;
                            lastAttemptAt: string | null;
                            nextAttemptAt: string | null;
                        }[];
                        total: number;
                        page: number;
                        limit: number;
                    };
                };
            };
            /** @description validation failed: `{ error, errors: { field: message } }` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["Error"];
                };
            };
            /** @description not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Insufficient permissions, or "Recent sign-in required" with stepUp: true */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Webhook not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal server error (500), or Service unavailable (503, with Retry-After) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
