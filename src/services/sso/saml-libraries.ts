import { lazyModule } from '../../util/lazy-module';

/*
 * The SAML stack (node-saml, xml-crypto, xml-encryption, xmldom, three xpath copies, xml2js, xmlbuilder: about
 * 1.5 MB of source kept in the heap) loads at the first SAML use, a metadata document read or written or a sign-in,
 * as the OpenID Provider does: a service with no SAML provider never holds it.
 */
export const xmlDom = lazyModule(() => require('@xmldom/xmldom') as typeof import('@xmldom/xmldom'));
export const xpath = lazyModule(() => require('xpath') as typeof import('xpath'));
export const nodeSaml = lazyModule(() => require('@node-saml/node-saml') as typeof import('@node-saml/node-saml'));
export const passportSaml = lazyModule(() => require('@node-saml/passport-saml') as typeof import('@node-saml/passport-saml'));
