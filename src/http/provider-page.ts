import path from 'node:path';
import ejs from 'ejs';
import type { ProviderPage } from '../services/oidc-provider/provider';

const PROVIDER_PAGE = path.resolve(__dirname, '..', '..', 'views', 'oidc', 'provider-page.ejs');

/** The OpenID Provider's own pages (errors, the logout question) in the service's look, outside Express's res.render. */
export const renderProviderPage: ProviderPage = (view, locals) => ejs.renderFile(PROVIDER_PAGE, { view, error: '', description: '', form: '', ...locals });
