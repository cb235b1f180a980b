/** The provider's endpoints under /oidc; discovery stays at the well-known path clients look at. */
export const OIDC_ROUTES = {
  authorization: '/oidc/auth',
  token: '/oidc/token',
  userinfo: '/oidc/userinfo',
  jwks: '/.well-known/jwks.json',
  end_session: '/oidc/session/end',
  revocation: '/oidc/token/revocation',
  introspection: '/oidc/token/introspection',
  code_verification: '/oidc/device',
  device_authorization: '/oidc/device/auth',
  pushed_authorization_request: '/oidc/request',
  backchannel_authentication: '/oidc/backchannel',
  registration: '/oidc/reg',
  challenge: '/oidc/challenge',
} as const;

export const INTERACTION_PATH = '/oidc/interaction';
