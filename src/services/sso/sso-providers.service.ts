import crypto from 'node:crypto';
import { UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';
import type { Config } from '../../config/config';
import type { Models, Role } from '../../models';
import type { SsoProvider } from '../../models/sso';
import type { AdminAudit } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import { createSealedBox } from '../../credentials/sealed-box';
import { transactionWithRetry } from '../../db/transaction-retry';
import { preparedStatements } from '../../db/prepared-statements';
import { discoverIssuer } from './oidc-issuer';
import { ssoUrls } from './sso-urls';
import { parseSamlMetadata, type SamlSettings } from './saml-metadata';
import type { ActivityService } from '../operations/activity.service';

export const SSO_PROVIDER_MESSAGES = {
  notFound: 'Single sign-on provider not found',
  slugTaken: 'A single sign-on provider with this slug already exists',
  domainTaken: (domain: string) => `The domain ${domain} already belongs to another single sign-on provider`,
  badCertificate: 'must be an X.509 certificate (PEM or base64)',
  secretUnreadable: 'The stored client secret cannot be opened (was JWT_SECRET changed?): enter it again',
} as const;

const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

/*
 * Written by hand, like the sign-in's user read: every password, code and magic-link sign-in asks it first, and the
 * model's findByPk (an instance, and on SQLite a `PRAGMA table_info` Sequelize runs before any SELECT of a quoted
 * table) cost main-thread CPU a login cannot spare. Nearly always no row: most domains have no provider.
 */
const DOMAIN_OWNER = 'SELECT provider_id FROM sso_domains WHERE domain = ?';

/** A SAML identity provider as an admin gives it: its metadata XML, or the three settings read from it. */
export type SamlInput = { metadataXml: string } | { entryPoint: string; idpEntityId: string; certificate: string };

/** What an admin sends to add a provider (validated at the edge: src/schemas/sso.schemas.ts). */
export interface SsoProviderInput {
  slug: string;
  protocol: 'oidc' | 'saml';
  name: string;
  domains: string[];
  enforce?: boolean;
  autoCreate?: boolean;
  defaultRole?: Role;
  oidc?: { issuer: string; clientId: string; clientSecret: string; scopes?: string[] };
  saml?: SamlInput;
}

/** What an admin sends to change a provider: any of its fields but slug and protocol; an absent client secret stays. */
export type SsoProviderChanges = Partial<Omit<SsoProviderInput, 'slug' | 'protocol' | 'oidc'>> & {
  oidc?: { issuer: string; clientId: string; clientSecret?: string; scopes?: string[] };
};


/** A provider row with the domains it owns, as sign-in reads it. */
export interface SsoProviderRecord {
  row: SsoProvider;
  domains: string[];
}

/** SHA-256 of a PEM or bare base64 certificate's DER bytes, as `AB:CD:…`: enough to compare, nothing to reuse. */
function certificateFingerprint(certificate: string): string {
  const der = Buffer.from(certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, ''), 'base64');
  return crypto.createHash('sha256').update(der).digest('hex').toUpperCase().match(/.{2}/g)!.join(':');
}

/** An explicit certificate (PEM, or its bare base64) as PEM, once X.509 reads it; else a 400 naming the field. */
function certificatePem(certificate: string): string {
  const body = certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
  try {
    new crypto.X509Certificate(pem);
  } catch {
    throw AppError.validation({ 'saml.certificate': SSO_PROVIDER_MESSAGES.badCertificate });
  }
  return pem;
}

/** The domain part of an address, as the domain table keys it. */
export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase();
}

/**
 * The enterprise identity providers (CONTRACT 15): saved only once usable (an OIDC issuer discovered under the
 * outbound rules; SAML settings read), the client secret sealed at rest, each domain owned by one provider (a
 * unique row per domain, written with the provider in one transaction), and the views that never show a secret.
 */
export function createSsoProviderService(deps: {
  config: Pick<Config, 'baseUrl' | 'jwtSecret' | 'allowPrivateOutbound'>;
  sequelize: Sequelize;
  models: Models;
  activity: ActivityService;
}) {
  const { config, sequelize, models, activity } = deps;
  const secrets = createSealedBox({ secret: config.jwtSecret, salt: 'auth-service', info: 'sso-client-secret.v1', layout: 'tag-last' });
  const withDomains = { include: [{ model: models.SsoDomain, as: 'domains' }] };

  function view(row: SsoProvider, domains: string[]) {
    const urls = ssoUrls(config.baseUrl, row.slug);
    return {
      id: row.id,
      slug: row.slug,
      name: row.name,
      protocol: row.protocol,
      domains: [...domains].sort(),
      enforce: row.enforce,
      autoCreate: row.autoCreate,
      defaultRole: row.defaultRole as Role,
      oidc:
        row.protocol === 'oidc'
          ? { issuer: row.oidcIssuer ?? '', clientId: row.oidcClientId ?? '', scopes: scopesOf(row), clientSecretSet: Boolean(row.oidcClientSecretSealed), redirectUri: urls.oidcRedirectUri }
          : null,
      saml:
        row.protocol === 'saml'
          ? {
              entryPoint: row.samlEntryPoint ?? '',
              idpEntityId: row.samlIdpEntityId ?? '',
              certificateFingerprint: row.samlCertificate ? certificateFingerprint(row.samlCertificate) : '',
              entityId: urls.samlEntityId,
              acs: urls.samlAcs,
              metadataUrl: urls.samlMetadata,
            }
          : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
  type ProviderView = ReturnType<typeof view>;

  function domainsOf(row: SsoProvider): string[] {
    return ((row as unknown as { domains?: Array<{ domain: string }> }).domains ?? []).map((entry) => entry.domain);
  }

  function scopesOf(row: SsoProvider): string[] {
    return row.oidcScopes ? row.oidcScopes.split(' ') : DEFAULT_SCOPES;
  }

  function samlColumns(input: SamlInput) {
    let settings: SamlSettings;
    if ('metadataXml' in input) {
      settings = parseSamlMetadata(input.metadataXml);
    } else {
      settings = { ...input, certificate: certificatePem(input.certificate) };
    }
    return { samlEntryPoint: settings.entryPoint, samlIdpEntityId: settings.idpEntityId, samlCertificate: settings.certificate };
  }

  async function writeDomains(providerId: string, domains: string[], transaction: Transaction): Promise<void> {
    await models.SsoDomain.destroy({ where: { providerId }, transaction });
    for (const domain of domains) {
      try {
        await models.SsoDomain.create({ domain, providerId }, { transaction });
      } catch (err) {
        if (err instanceof UniqueConstraintError) throw AppError.conflict(SSO_PROVIDER_MESSAGES.domainTaken(domain));
        throw err;
      }
    }
  }

  async function find(id: string): Promise<SsoProvider> {
    const row = await models.SsoProvider.findByPk(id, withDomains);
    if (!row) throw AppError.notFound(SSO_PROVIDER_MESSAGES.notFound);
    return row;
  }

  async function list(): Promise<ProviderView[]> {
    const rows = await models.SsoProvider.findAll({ ...withDomains, order: [['name', 'ASC'], ['slug', 'ASC']] });
    return rows.map((row) => view(row, domainsOf(row)));
  }

  async function get(id: string): Promise<ProviderView> {
    const row = await find(id);
    return view(row, domainsOf(row));
  }

  /** Adds a provider once its settings are usable (discovery happens before any row is written). */
  async function create(input: SsoProviderInput, audit: AdminAudit): Promise<ProviderView> {
    if (input.oidc) await discoverIssuer(input.oidc.issuer, config.allowPrivateOutbound);
    const saml = input.saml ? samlColumns(input.saml) : {};
    const id = crypto.randomUUID();
    let row: SsoProvider;
    try {
      row = await transactionWithRetry(sequelize, async (transaction) => {
        const created = await models.SsoProvider.create(
          {
            id,
            slug: input.slug,
            name: input.name,
            protocol: input.protocol,
            enforce: input.enforce ?? false,
            autoCreate: input.autoCreate ?? false,
            defaultRole: input.defaultRole ?? 'viewer',
            oidcIssuer: input.oidc?.issuer ?? null,
            oidcClientId: input.oidc?.clientId ?? null,
            oidcClientSecretSealed: input.oidc ? secrets.seal(input.oidc.clientSecret, id) : null,
            oidcScopes: input.oidc?.scopes ? [...new Set(input.oidc.scopes)].join(' ') : null,
            ...saml,
          },
          { transaction },
        );
        await writeDomains(id, input.domains, transaction);
        return created;
      });
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw AppError.conflict(SSO_PROVIDER_MESSAGES.slugTaken);
      throw err;
    }
    await activity.record({ action: 'sso_provider.created', userId: audit.actor.id, email: audit.actor.email, details: { slug: row.slug, protocol: row.protocol, domains: input.domains } }, audit.context);
    return view(row, input.domains);
  }

  /** Changes a provider; the slug and protocol stay (links and the IdP's settings name them). */
  async function update(id: string, changes: SsoProviderChanges, audit: AdminAudit): Promise<ProviderView> {
    const existing = await find(id);
    if (changes.oidc && existing.protocol !== 'oidc') throw AppError.validation({ oidc: 'is for protocol oidc only' });
    if (changes.saml && existing.protocol !== 'saml') throw AppError.validation({ saml: 'is for protocol saml only' });
    if (changes.oidc) await discoverIssuer(changes.oidc.issuer, config.allowPrivateOutbound);
    const saml = changes.saml ? samlColumns(changes.saml) : {};
    const oidc = changes.oidc
      ? {
          oidcIssuer: changes.oidc.issuer,
          oidcClientId: changes.oidc.clientId,
          oidcScopes: changes.oidc.scopes ? [...new Set(changes.oidc.scopes)].join(' ') : null,
          ...(changes.oidc.clientSecret ? { oidcClientSecretSealed: secrets.seal(changes.oidc.clientSecret, id) } : {}),
        }
      : {};
    const row = await transactionWithRetry(sequelize, async (transaction) => {
      const locked = await models.SsoProvider.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!locked) throw AppError.notFound(SSO_PROVIDER_MESSAGES.notFound);
      const fields = { name: changes.name, enforce: changes.enforce, autoCreate: changes.autoCreate, defaultRole: changes.defaultRole };
      const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      // `changed('updatedAt')`: every save moves it, so each instance rebuilds its strategy for this provider.
      locked.set({ ...defined, ...oidc, ...saml });
      locked.changed('updatedAt', true);
      await locked.save({ transaction });
      if (changes.domains) await writeDomains(id, changes.domains, transaction);
      return locked;
    });
    const domains = changes.domains ?? domainsOf(existing);
    await activity.record({ action: 'sso_provider.updated', userId: audit.actor.id, email: audit.actor.email, details: { slug: row.slug, fields: Object.keys(changes).filter((key) => changes[key as keyof SsoProviderChanges] !== undefined) } }, audit.context);
    return view(row, domains);
  }

  /**
   * Removes a provider, its domains and every identity linked through it (the accounts stay: they sign in
   * another way, or through a provider added again, linking afresh by the rules of a first sign-in).
   */
  async function remove(id: string, audit: AdminAudit): Promise<void> {
    const row = await transactionWithRetry(sequelize, async (transaction) => {
      const locked = await models.SsoProvider.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!locked) throw AppError.notFound(SSO_PROVIDER_MESSAGES.notFound);
      await models.SsoDomain.destroy({ where: { providerId: id }, transaction });
      await models.OAuthAccount.destroy({ where: { provider: providerName(locked.slug) }, transaction });
      await locked.destroy({ transaction });
      return locked;
    });
    await activity.record({ action: 'sso_provider.deleted', userId: audit.actor.id, email: audit.actor.email, details: { slug: row.slug } }, audit.context);
  }

  /** The provider a sign-in names by slug, with its domains. */
  async function bySlug(slug: string): Promise<SsoProviderRecord | null> {
    const row = await models.SsoProvider.findOne({ where: { slug }, ...withDomains });
    return row ? { row, domains: domainsOf(row) } : null;
  }

  /** The provider that owns an address's domain (one primary-key read), or null. */
  async function forEmail(email: string): Promise<SsoProvider | null> {
    const [owner] = await preparedStatements(sequelize).select<{ provider_id: string }>(DOMAIN_OWNER, [domainOf(email)]);
    return owner ? models.SsoProvider.findByPk(owner.provider_id) : null;
  }

  /** Whether any provider exists (the sign-in page offers single sign-on then). */
  async function any(): Promise<boolean> {
    return (await models.SsoProvider.count()) > 0;
  }

  /** The OIDC client secret, opened for the code exchange; a 400 when it no longer opens. */
  function clientSecret(row: SsoProvider): string {
    const opened = row.oidcClientSecretSealed ? secrets.open(row.oidcClientSecretSealed, row.id) : null;
    if (!opened) throw AppError.badRequest(SSO_PROVIDER_MESSAGES.secretUnreadable);
    return opened.toString('utf8');
  }

  function samlSettings(row: SsoProvider): SamlSettings | null {
    if (row.protocol !== 'saml' || !row.samlEntryPoint || !row.samlIdpEntityId || !row.samlCertificate) return null;
    return { entryPoint: row.samlEntryPoint, idpEntityId: row.samlIdpEntityId, certificate: row.samlCertificate };
  }

  return { list, get, create, update, remove, bySlug, forEmail, any, clientSecret, scopesOf, samlSettings };
}

/** How an identity linked through a provider is named in oauth_accounts.provider (the credential registry's linked accounts). */
export function providerName(slug: string): string {
  return `sso:${slug}`;
}

export type SsoProviderService = ReturnType<typeof createSsoProviderService>;
