/**
 * The account center's sections (CONTRACT 6): each a page of its own under /admin/profile, in the order of the
 * section navigation, the danger zone ("Your data") last. Every card's form, step-up prompt and notice returns
 * to its section's address, so this is the one list of those addresses (pages, the JSON API's step-up
 * `returnTo`, the OAuth linking landing, the security notices' link).
 */
export const ACCOUNT_SECTIONS = {
  profile: { href: '/admin/profile', label: 'Profile', title: 'Your profile' },
  security: { href: '/admin/profile/security', label: 'Security', title: 'Security' },
  sessions: { href: '/admin/profile/sessions', label: 'Sessions', title: 'Sessions' },
  apps: { href: '/admin/profile/apps', label: 'Apps and API keys', title: 'Apps and API keys' },
  data: { href: '/admin/profile/data', label: 'Your data', title: 'Your data' },
} as const;

export type AccountSection = keyof typeof ACCOUNT_SECTIONS;

/** The address of a section: `accountPage('security')` is `/admin/profile/security`. */
export const accountPage = (section: AccountSection): string => ACCOUNT_SECTIONS[section].href;

/** The section navigation as views/admin/partials/account-nav.ejs draws it, `current` marked. */
export function accountNav(current: AccountSection | null) {
  return (Object.keys(ACCOUNT_SECTIONS) as AccountSection[]).map((key) => ({ ...ACCOUNT_SECTIONS[key], current: key === current }));
}
