import { PROVIDER_LABELS } from '../models/oauth-provider-names';
import { OAUTH_PROVIDERS, type OAuthProviderName } from '../models/oauth-provider-names';

/**
 * The notices a page shows after a redirect (issue 26, finding 6). A redirect carries only a code
 * (`?notice=password_changed`); the page looks the code up here and shows this text, and an unknown code
 * shows nothing. So no link can make the site say words of its sender's choosing ("Your account is
 * locked, call +1…"), and no notice repeats a value from the query: a page that names something (the user
 * just created) draws it from its own data.
 */
export interface Notice {
  /** `message`: a confirmation (role=status); `error`: a refusal (role=alert). */
  readonly kind: 'message' | 'error';
  readonly text: string;
}

const message = (text: string): Notice => ({ kind: 'message', text });
const error = (text: string): Notice => ({ kind: 'error', text });

/** Notices that name nothing. */
const PLAIN = {
  // The sign-in pages.
  signed_out: message('You have been signed out.'),
  password_reset: message('Your password has been reset. Please sign in.'),
  reset_requested: message('If an account with this email exists, a password reset link has been sent.'),
  sign_in_required: error('Authentication required'),
  forbidden: error('Insufficient permissions'),
  sign_in_again: error('For your security, sign in again to continue.'),
  two_factor_expired: error('That two-factor sign-in expired or was already used. Please sign in again.'),
  magic_link_invalid: error('This sign-in link is invalid or has expired. Please ask for a new one.'),
  // CONTRACT 12: verification and change-of-address links (one message for every refused link), the account's end.
  email_verified: message('Your email address is verified. Thank you.'),
  email_changed: message('Your email address has been changed. Every other session has been signed out.'),
  email_link_invalid: error('This link is invalid, was already used or has expired. Ask for a new one from your profile.'),
  account_deleted: message('Your account has been deleted.'),
  // OAuth callbacks (the provider is named where the reason depends on it: see PER_PROVIDER).
  oauth_state: error('Sign-in could not be completed: the request expired, was already used, or was started in another browser. Please try again.'),
  oauth_other_user: error('The account link was completed while another user was signed in. Sign in as the user who started it and try again.'),
  oauth_registration_disabled: error('Registration is currently disabled'),
  oauth_inactive: error('This account is not active'),
  oauth_user_unavailable: error('Your account is not active'),
  oauth_last_method: error('Cannot unlink the only authentication method. Set a password first.'),
  oauth_refused: error('The linked accounts were not changed. Please try again.'),
  // CONTRACT 15: single sign-on refusals (one code per reason the user can act on; the activity row has the detail).
  sso_failed: error('Single sign-on could not be completed: the request expired, was already used, was started in another browser, or the provider refused. Please try again.'),
  sso_wrong_domain: error('Your identity provider did not vouch for an address of its own organisation, so it cannot sign you in here.'),
  sso_no_account: error('There is no account for this address. Ask an administrator to create one.'),
  sso_inactive: error('This account is not active'),
  sso_unavailable: error('This single sign-on provider is not available.'),
  sso_no_provider: error('No single sign-on for this address'),
  // The admin site.
  profile_saved: message('Profile saved'),
  passkey_added: message('Passkey added. You can now sign in with it.'),
  passkey_removed: message('Passkey removed. It can no longer sign in.'),
  passkey_gone: message('That passkey had already been removed.'),
  api_key_revoked: message('API key revoked. It no longer works anywhere.'),
  api_key_gone: message('That API key had already been revoked.'),
  signing_key_rotated: message('New signing keys made, the OpenID Provider’s included. Every instance signs with them now; older keys verify until their tokens expire.'),
  provider_keys_rotated: message('New OpenID Provider signing keys made. Every instance signs with them now; older keys verify until their tokens expire. The service’s own tokens are signed with JWT_SECRET (HS256), which rotation does not change.'),
  password_changed: message('Password changed. Every other session has been signed out.'),
  verification_sent: message('If your address is not verified yet, a new link is on its way. It is valid for 24 hours.'),
  email_change_requested: message('If the new address can be used, a confirmation link has been sent to it. Your address changes when you open that link.'),
  step_up_done: message('Confirmed. You can now repeat what you were doing.'),
  two_factor_enabled: message('Two-factor authentication is on.'),
  two_factor_disabled: message('Two-factor authentication is off.'),
  two_factor_reset: message("This user's two-factor authentication was removed and their sessions ended."),
  session_revoked: message('That session has been signed out.'),
  session_gone: message('That session had already ended.'),
  sessions_revoked: message('Every other session has been signed out.'),
  user_sessions_revoked: message("Every session of this user has been signed out."),
  user_created: message('User created'),
  user_saved: message('Changes saved'),
  user_deleted: message('User deleted'),
  user_gone: message('That user was already deleted'),
  content_created: message('Content created'),
  content_saved: message('Changes saved'),
  content_deleted: message('Content deleted'),
  content_gone: message('That item was already deleted'),
  collection_created: message('Collection created'),
  collection_saved: message('Collection saved'),
  collection_deleted: message('Collection deleted; its items stay, without a collection'),
  collection_gone: message('That collection was already deleted'),
  settings_saved: message('Security settings saved. They apply to the next sign-in and refresh.'),
  settings_unchanged: message('Nothing changed.'),
  sso_provider_saved: message('Single sign-on provider saved. Every instance uses the new settings from the next sign-in.'),
  sso_provider_deleted: message('Single sign-on provider removed, with the identities linked through it.'),
  plugin_saved: message('Plugin settings saved.'),
  application_created: message('Application added. It is public: it has no secret, and signs in with PKCE alone.'),
  application_saved: message('Application saved.'),
  application_deleted: message('Application deleted. Every token it held has ended.'),
  connected_app_revoked: message('Access removed. The application must ask you again to sign you in.'),
  connected_app_gone: message('That application was no longer connected.'),
  test_email_sent: message('Test email sent to your address.'),
  test_email_not_configured: error('Test email failed: no mail service is configured (SMTP_URL or the email plugin).'),
  test_email_failed: error('Test email failed: the mail service did not accept it. The service log has the reason.'),
} as const satisfies Record<string, Notice>;

/** Notices about one OAuth provider: the code is `<provider>_<key>` (`github_linked`), the text names it. */
const PER_PROVIDER = {
  linked: (label: string) => message(`${label} account linked`),
  unlinked: (label: string) => message(`${label} account unlinked`),
  not_linked: (label: string) => error(`No ${label} account is linked`),
  sign_in_failed: (label: string) => error(`Sign-in with ${label} was cancelled or failed. Please try again.`),
  disabled: (label: string) => error(`${label} sign-in is not available.`),
  no_email: (label: string) => error(`${label} did not share an email address, so we cannot sign you in with it.`),
  unverified_email: (label: string) =>
    error(`Your ${label} email address is not verified. Verify it at ${label}, or sign in another way and link ${label} from your profile.`),
  provider_already_linked: (label: string) => error(`Another ${label} account is already linked to this account. Unlink it first.`),
  linked_to_other: (label: string) => error(`This ${label} account is already linked to another user.`),
  link_ended: (label: string) => error(`Your sessions were ended after this ${label} link was started. Sign in and link ${label} again.`),
} as const satisfies Record<string, (label: string) => Notice>;

export type ProviderNoticeKey = keyof typeof PER_PROVIDER;
export type NoticeCode = keyof typeof PLAIN | `${OAuthProviderName}_${ProviderNoticeKey}`;

/** The catalogue: a Map, so a code such as `constructor` or `__proto__` finds nothing. */
const NOTICES: ReadonlyMap<string, Notice> = new Map<string, Notice>([
  ...Object.entries(PLAIN),
  ...OAUTH_PROVIDERS.flatMap((provider) =>
    Object.entries(PER_PROVIDER).map(([key, make]) => [`${provider}_${key}`, make(PROVIDER_LABELS[provider])] as const),
  ),
]);

/** Every code of the catalogue (tests draw each page with each). */
export const NOTICE_CODES: readonly string[] = [...NOTICES.keys()];

/** The code of a notice about one provider (`providerNotice('github', 'linked')` → `github_linked`). */
export function providerNotice(provider: OAuthProviderName, key: ProviderNoticeKey): NoticeCode {
  return `${provider}_${key}`;
}

/** A path carrying a notice for the page it leads to: `withNotice('/admin/profile', 'profile_saved')`. */
export function withNotice(path: string, code: NoticeCode): string {
  return `${path}${path.includes('?') ? '&' : '?'}notice=${code}`;
}

/** The notice a code names, or undefined for anything else. */
export function lookUpNotice(code: unknown): Notice | undefined {
  return typeof code === 'string' ? NOTICES.get(code) : undefined;
}

/**
 * What a page shows for its query's `notice`: the catalogue's text as `message` or `error`, both null for
 * an unknown or missing code. Any `?message=` or `?error=` text is ignored.
 */
export function noticeOf(query: unknown): { message: string | null; error: string | null } {
  const found = lookUpNotice((query as Record<string, unknown> | undefined)?.notice);
  return { message: found?.kind === 'message' ? found.text : null, error: found?.kind === 'error' ? found.text : null };
}
