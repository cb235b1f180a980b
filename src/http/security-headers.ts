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

/**
 * The Content-Security-Policy of every response (issue 26, finding 8): nothing but this origin's own files
 * may run or style a page, no page can be framed (`frame-ancestors 'none'`; X-Frame-Options stays for old
 * browsers and SPEC 5), forms post only here, and no `<base>` or plugin can redirect what a page loads.
 * No page has inline script or style (scripts and stylesheets are files under public/), so no nonce is
 * needed. Form targets: the profile page's "Link GitHub" form posts here and is answered by a redirect to
 * the provider, which Chromium checks against form-action too, hence `formTargets` (the enabled providers'
 * authorization origins, read for that page's requests only).
 */
function contentSecurityPolicy(formTargets: FormTargets | undefined): RequestHandler {
  const policy = helmet.contentSecurityPolicy({
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
  if (!formTargets) return policy;
  const { page, origins } = formTargets;
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    if (path !== page && !path.startsWith(`${page}/`)) return policy(req, res, next);
    origins().then((found) => {
      res.locals.cspFormTargets = found;
      policy(req, res, next);
    }, next);
  };
}

/**
 * The headers of SPEC 5 and the Content-Security-Policy: helmet's other defaults are switched off so the
 * set stays the one the contract promises. HSTS only in production, where the service sits behind TLS.
 */
export function securityHeaders(isProduction: boolean, options: { formTargets?: FormTargets } = {}): RequestHandler[] {
  return [
    helmet({
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
    }),
    contentSecurityPolicy(options.formTargets),
    (_req, res, next) => {
      res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
      next();
    },
  ];
}
