import path from 'node:path';
import ejs from 'ejs';

/**
 * A minimal HTML page of the provider's own (an error, the logout question, the signed-out note, or a page that
 * moves on to the application after a form post): escaped, no script.
 */
export type ProviderPage = (view: 'error' | 'logout' | 'logged-out' | 'redirect', locals: Record<string, unknown>) => Promise<string>;

const PROVIDER_PAGE = path.resolve(__dirname, '..', '..', 'views', 'oidc', 'provider-page.ejs');

/** The OpenID Provider's own pages (errors, the logout question) in the service's look, outside Express's res.render. */
export const renderProviderPage: ProviderPage = (view, locals) => ejs.renderFile(PROVIDER_PAGE, { view, error: '', description: '', form: '', target: '', ...locals });
