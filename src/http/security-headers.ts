import helmet from 'helmet';
import type { Request, RequestHandler, Response } from 'express';

const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=()';

/**
 * The page whose preview frame shows the OTP code mail. The frame's document is `srcdoc`, which inherits
 * this page's policy, and a mail can only be styled by `style=` attributes and carries the admin's logo
 * from any https host: so on this one page attribute styles and https images are allowed. Scripts stay
 * 'self' only, and the frame is sandboxed (no script, opaque origin) besides.
 */
const MAIL_PREVIEW_PAGE = '/admin/plugins/otp-login';

function showsMailPreview(req: Request): boolean {
  return req.path.toLowerCase().replace(/\/+$/, '') === MAIL_PREVIEW_PAGE;
}

/** A page whose forms are answered by a redirect to another site, and the origins it may lead to now. */
export interface FormTargets {
  /** The page's path; its form routes are under it (`/admin/profile/password` redraws `/admin/profile`). */
  page: string;
  origins: () => Promise<readonly string[]>;
}

/** `text` as a regular expression that matches only that text. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Which page drawn per request a request is for, or null for every other request (which gets the policy
 * captured at start): the mail preview, or the page whose forms lead to other sites.
 */
function perRequestPage(formTargets: FormTargets | undefined): (req: Request) => 'mail-preview' | 'form-targets' | null {
  const pages = [MAIL_PREVIEW_PAGE, ...(formTargets ? [formTargets.page] : [])];
  // Decided on the raw URL first: nearly every response is for no such page, and needs no parsed req.path.
  const mayBeOne = new RegExp(`^(?:${pages.map(literally).join('|')})`, 'i');
  return (req) => {
    if (!mayBeOne.test(req.url)) return null;
    if (showsMailPreview(req)) return 'mail-preview';
    if (!formTargets) return null;
    const path = req.path.toLowerCase();
    return path === formTargets.page || path.startsWith(`${formTargets.page}/`) ? 'form-targets' : null;
  };
}

/**
 * The Content-Security-Policy of every response (issue 26, finding 8): nothing but this origin's own files
 * may run or style a page, no page can be framed (`frame-ancestors 'none'`; X-Frame-Options stays for old
 * browsers and SPEC 5), forms post only here, and no `<base>` or plugin can redirect what a page loads.
 * No page has inline script or style (scripts and stylesheets are files under public/), so no nonce is
 * needed. Form targets: the profile page's "Link GitHub" form posts here and is answered by a redirect to
 * the provider, which Chromium checks against form-action too, hence `res.locals.cspFormTargets` (the
 * enabled providers' authorization origins, read for that page's requests only).
 */
const contentSecurityPolicy = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    styleSrcAttr: [(req) => (showsMailPreview(req as Request) ? "'unsafe-inline'" : "'none'")],
    imgSrc: [(req) => (showsMailPreview(req as Request) ? "'self' data: https:" : "'self' data:")],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    formAction: [(_req, res) => ["'self'", ...((res as Response).locals.cspFormTargets ?? [])].join(' ')],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    objectSrc: ["'none'"],
  },
});

type HeaderList = readonly (readonly [name: string, value: string])[];

/**
 * The headers a helmet middleware sets for `req`, read off a stand-in response. helmet's middlewares are
 * synchronous and their values depend only on their options and on what the directive functions read
 * (`req.path`, `res.locals`), so for every response but the pages drawn per request they are the same:
 * computed once here, each response then only sets them (helmet, rebuilding and re-validating the policy on
 * every request, was 2.4 % of `/auth/me`'s CPU in a profile of the bench).
 */
function headersSetBy(middleware: RequestHandler, req: Pick<Request, 'path'>): HeaderList {
  const headers: [string, string][] = [];
  const standIn = {
    locals: {},
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    // helmet's xPoweredBy removes X-Powered-By; this app never sets it (app.disable), so nothing to capture.
    removeHeader: () => undefined,
  };
  middleware(req as Request, standIn as unknown as Response, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

function setAll(res: Response, headers: HeaderList): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}

/**
 * The headers of SPEC 5 and the Content-Security-Policy: helmet's other defaults are switched off so the
 * set stays the one the contract promises. HSTS only in production, where the service sits behind TLS.
 */
export function securityHeaders(isProduction: boolean, options: { formTargets?: FormTargets } = {}): RequestHandler {
  const spec5 = helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    dnsPrefetchControl: false,
    ieNoOpen: false,
    permittedCrossDomainPolicies: false,
    xssFilter: false,
    xPoweredBy: true,
    noSniff: true,
    frameguard: { action: 'sameorigin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: isProduction ? { maxAge: 31536000, includeSubDomains: true, preload: false } : false,
  });
  const common: HeaderList = [...headersSetBy(spec5, { path: '/' }), ['Permissions-Policy', PERMISSIONS_POLICY]];
  const everyResponse: HeaderList = [...common, ...headersSetBy(contentSecurityPolicy, { path: '/' })];
  const { formTargets } = options;
  const pageOf = perRequestPage(formTargets);

  return (req, res, next) => {
    const page = pageOf(req);
    if (page === null) {
      setAll(res, everyResponse);
      return next();
    }
    setAll(res, common);
    if (page === 'mail-preview' || !formTargets) return contentSecurityPolicy(req, res, next);
    formTargets.origins().then((found) => {
      res.locals.cspFormTargets = found;
      contentSecurityPolicy(req, res, next);
    }, next);
  };
}
