import path from 'node:path';
import express, { type RequestHandler } from 'express';
import type { Container } from '../container';
import { createApiRouter, validated } from '../http/api-router';
import { createPasskeysController } from '../controllers/passkeys.controller';
import { requireRecentSignIn } from '../middleware/step-up';
import { STRATEGY } from '../sign-in/passport';
import { PASSKEYS_ENDPOINTS as doc } from '../schemas/passkeys.schemas';
import { accountPage } from '../http/account-sections';

/** Where a page that started a passkey change comes back to after signing in again. */
const PROFILE_PAGE = accountPage('security');

/**
 * CONTRACT 10: passkeys. Mounted at /auth/passkeys. Adding and removing one are step-up actions (CONTRACT 9);
 * the sign-in route is `available → limit → validate → authenticate('passkey') → issueSession`, like every other.
 */
export function passkeysRoutes(container: Container) {
  const { guards, limits, authenticate, issueSession } = container;
  const passkeys = createPasskeysController(container);
  const api = createApiRouter(container.docs, '/auth/passkeys');
  const recent = requireRecentSignIn({ returnTo: PROFILE_PAGE });
  const { available } = passkeys;

  api.post('/register/options', doc.registerOptions, available, guards.requireAuth, recent, passkeys.registerOptions);
  api.post('/register/verify', doc.registerVerify, available, guards.requireAuth, recent, validated, passkeys.registerVerify);
  api.get('/', doc.list, available, guards.requireAuth, passkeys.list);
  api.delete('/:id', doc.remove, available, guards.requireAuth, recent, validated, passkeys.remove);
  api.post('/login/options', doc.loginOptions, available, limits.passkey, validated, passkeys.loginOptions);
  api.post('/login/verify', doc.loginVerify, available, limits.passkey, validated, authenticate(STRATEGY.passkey), issueSession('auth.passkey_login'));
  return api.router;
}

/**
 * CONTRACT 9 + 10: a passkey as the second step of a sign-in. Mounted at /auth/2fa/passkey, under the path of
 * the /auth/2fa page's challenge cookie; the answer goes to POST /auth/2fa/verify like every other kind's.
 */
export function passkeySecondStepRoutes(container: Container) {
  const passkeys = createPasskeysController(container);
  const api = createApiRouter(container.docs, '/auth/2fa/passkey');
  api.post('/options', doc.secondStepOptions, passkeys.available, container.limits.passkey, validated, passkeys.secondStepOptions);
  return api.router;
}

/**
 * @simplewebauthn/browser's UMD bundle (global `SimpleWebAuthnBrowser`), served from the installed package as
 * a file of ours at /static/vendor/simplewebauthn/: no CDN, and the pages' CSP allows scripts of this origin only.
 */
export function passkeyBrowserBundle(): RequestHandler {
  // The package exports no package.json: its CommonJS entry is script/index.js, the bundle beside script/.
  const bundle = path.join(path.dirname(require.resolve('@simplewebauthn/browser')), '..', 'dist', 'bundle');
  return express.static(bundle, { maxAge: '1h', index: false });
}
