import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { email, redirectField } from './input-rules';
import { PASSKEY_MESSAGES, PASSKEY_NAME_MAX_LENGTH } from '../services/sign-in-methods/passkey.service';
import { signInResponse } from './auth.schemas';

/*
 * The browser's answers as @simplewebauthn/browser hands them over (RegistrationResponseJSON,
 * AuthenticationResponseJSON): bytes in base64url. Bounds keep every field to what an authenticator sends
 * (a credential id is at most 1023 bytes; attestation is "none", so no certificate chain rides along).
 */
const base64url = (max: number) =>
  z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+={0,2}$/, { message: 'must be base64url' });
const credentialId = base64url(1400);
const clientDataJSON = base64url(4096);
const extensionResults = z.record(z.string(), z.unknown()).describe('clientExtensionResults, as the browser reports them');
const responseEnvelope = {
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResults.optional(),
};

const registrationResponse = z.object({
  ...responseEnvelope,
  response: z.object({
    clientDataJSON,
    attestationObject: base64url(16_384),
    authenticatorData: base64url(16_384).optional(),
    transports: z.array(z.string().max(32)).max(8).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4096).optional(),
  }),
});

/** An assertion (navigator.credentials.get), as sign-in and the second step of a sign-in take it. */
export const authenticationResponse = z.object({
  ...responseEnvelope,
  response: z.object({
    clientDataJSON,
    authenticatorData: base64url(4096),
    signature: base64url(1024),
    userHandle: base64url(128).optional(),
  }),
});

const passkeyName = z
  .string()
  .trim()
  .max(PASSKEY_NAME_MAX_LENGTH)
  .regex(/^[^\p{Cc}\p{Cf}]*$/u, { message: 'must not contain control characters' })
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const registerVerifyBody = z.strictObject({ response: registrationResponse, name: passkeyName });
const loginOptionsBody = z.strictObject({ email: email.optional() });
// `redirect`: where a page goes once signed in (the sign-in page's script asks for a page answer, as its form would).
const loginVerifyBody = z.strictObject({ response: authenticationResponse, redirect: redirectField });
const secondStepOptionsBody = z.strictObject({ challenge: z.string().min(1).max(128).optional().describe('the challenge of the sign-in answer; a page leaves it out (its cookie carries it)') });
export const passkeyParams = z.strictObject({ id: z.uuid({ message: 'must be a passkey id' }) });

export type PasskeyRegisterBody = z.output<typeof registerVerifyBody>;
export type PasskeyLoginOptionsBody = z.output<typeof loginOptionsBody>;

const passkey = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string().describe('ISO 8601'),
  lastUsedAt: z.string().nullable().describe('ISO 8601 of the last sign-in with it; null before the first'),
});
const credentialDescriptor = z.object({ id: z.string(), type: z.literal('public-key'), transports: z.array(z.string()).optional() });
const creationOptions = z
  .object({
    rp: z.object({ id: z.string(), name: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    challenge: z.string(),
    pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number().int() })),
    timeout: z.number().int(),
    excludeCredentials: z.array(credentialDescriptor),
    authenticatorSelection: z.object({ residentKey: z.string(), userVerification: z.string(), requireResidentKey: z.boolean().optional() }),
    attestation: z.string(),
  })
  .describe('PublicKeyCredentialCreationOptionsJSON: pass to startRegistration({ optionsJSON }) of @simplewebauthn/browser');
export const requestOptions = z
  .object({
    rpId: z.string(),
    challenge: z.string(),
    timeout: z.number().int(),
    userVerification: z.string(),
    allowCredentials: z.array(credentialDescriptor).optional(),
  })
  .describe('PublicKeyCredentialRequestOptionsJSON: pass to startAuthentication({ optionsJSON }) of @simplewebauthn/browser');

const tags = ['Passkeys'];
const unavailable = `"${PASSKEY_MESSAGES.unavailable}": BASE_URL names an IP address, which WebAuthn does not accept as relying party`;
const stepUp = '"Recent sign-in required" with stepUp: true (the sign-in is older than 10 minutes)';
const failed = { description: `"${PASSKEY_MESSAGES.signInFailed}", whatever the reason (expired or reused challenge, unknown, removed or another account's passkey, wrong origin or RP ID, counter gone backwards, bad signature)` };

/** CONTRACT 10: registering, listing and removing passkeys, and signing in with one. Mounted at /auth/passkeys. */
export const PASSKEYS_ENDPOINTS = {
  registerOptions: {
    summary: 'Start registering a passkey: creation options with a fresh challenge (5 minutes, single use)',
    tags,
    auth: true,
    responses: { 200: { description: 'creation options', schema: creationOptions }, 403: stepUp, 409: PASSKEY_MESSAGES.tooMany, 503: unavailable },
  },
  registerVerify: {
    summary: 'Finish registering a passkey with the browser\'s response',
    description: 'The response must answer a challenge this user was given by register/options and not yet used. The owner is mailed a notice.',
    tags,
    auth: true,
    body: registerVerifyBody,
    responses: {
      201: { description: 'the new passkey', schema: z.object({ passkey }) },
      400: `validation failed, "${PASSKEY_MESSAGES.registrationExpired}" or "${PASSKEY_MESSAGES.registrationFailed}" (nothing stored)`,
      403: stepUp,
      409: `"${PASSKEY_MESSAGES.duplicate}" or "${PASSKEY_MESSAGES.tooMany}"`,
      503: unavailable,
    },
  },
  list: {
    summary: "The signed-in user's passkeys, oldest first",
    tags,
    auth: true,
    responses: { 200: { description: 'passkeys', schema: z.object({ passkeys: z.array(passkey) }) }, 503: unavailable },
  },
  remove: {
    summary: 'Remove one of your passkeys: it signs in no more',
    tags,
    auth: true,
    params: passkeyParams,
    responses: { 204: 'removed', 403: stepUp, 404: PASSKEY_MESSAGES.notFound, 503: unavailable },
  },
  loginOptions: {
    summary: 'Start a passkey sign-in: request options with a fresh challenge (5 minutes, single use)',
    description:
      '`{}` for a discoverable passkey (the browser offers the passkeys it holds for this site); `{ email }` lists that account\'s ' +
      'passkeys. An email without passkeys (or without an account) gets an answer of the same shape, so it tells nothing.',
    tags,
    body: loginOptionsBody,
    responses: { 200: { description: 'request options', schema: requestOptions }, 429: 'too many requests from this client (30 per minute)', 503: unavailable },
  },
  loginVerify: {
    summary: 'Sign in with a passkey',
    description:
      'The normal sign-in answer: a session, auth_token and csrf_token cookies, `{ user, token }`. A passkey that verified its ' +
      'holder satisfies the second factor; without that, an account with one answers `{ twoFactorRequired, challenge, methods }` ' +
      '(a page: 302 to /auth/2fa).',
    tags,
    body: loginVerifyBody,
    responses: {
      200: { description: 'Login response (user with custom fields), or the second step\'s challenge', schema: signInResponse },
      302: 'page request (Accept: text/html): to the redirect field, /admin, or /auth/2fa',
      401: failed,
      429: 'too many requests from this client (30 per minute)',
      503: unavailable,
    },
  },
  secondStepOptions: {
    summary: 'Request options for answering a sign-in\'s second step with a passkey',
    description:
      'After a first factor answered `{ twoFactorRequired, challenge, methods }` with `passkey` among the methods: options for ' +
      'the user\'s own passkeys, user verification required. Send the assertion to POST /auth/2fa/verify as `{ challenge, passkey }`.',
    tags,
    body: secondStepOptionsBody,
    responses: { 200: { description: 'request options', schema: requestOptions }, 401: failed, 429: 'too many requests from this client (30 per minute)', 503: unavailable },
  },
} satisfies Record<string, Endpoint>;
