import { lazyModule } from '../../util/lazy-module';

/*
 * The enterprise sign-in libraries load at their first use, as the OpenID Provider does: a service with no SSO
 * provider of that kind never holds them. The SAML stack (node-saml, xml-crypto, xml-encryption, xmldom, three xpath
 * copies, xml2js, xmlbuilder) is about 1.5 MB of source kept in the heap, openid-client another 0.3 MB.
 */
export const openidClient = lazyModule(() => require('openid-client') as typeof import('openid-client'));
export const xmlDom = lazyModule(() => require('@xmldom/xmldom') as typeof import('@xmldom/xmldom'));
export const xpath = lazyModule(() => require('xpath') as typeof import('xpath'));
export const nodeSaml = lazyModule(() => require('@node-saml/node-saml') as typeof import('@node-saml/node-saml'));
export const passportSaml = lazyModule(() => require('@node-saml/passport-saml') as typeof import('@node-saml/passport-saml'));
