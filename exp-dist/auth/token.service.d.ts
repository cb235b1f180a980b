import crypto from 'node:crypto';
import type { Transaction } from 'sequelize';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { Models, Role, User } from '../models';
import type { KeyValueStore } from '../store';
import type { SettingsService } from '../services/settings.service';
import type { AccessClaims, AuthUser } from './auth-user';
export declare const VERIFICATION_CACHE_SECONDS = 300;
export interface IssuedToken {
    token: string;
    expiresIn: number;
    claims: AccessClaims;
}
export type RefreshCheck = {
    ok: true;
    user: User;
    claims: AccessClaims;
} | {
    ok: false;
    reason: 'invalid' | 'inactive';
};
/**
 * Issues and verifies access tokens (HS256, pinned). Verification results are cached for five minutes
 * in the key-value store under a hash of the whole token. Each user has a version key in the store that
 * any change (revocation, role, profile) replaces; a cached result under an old version is not trusted,
 * so revocation takes effect at once. The version key lives as long as the cache entries it guards.
 */
export declare function createTokenService(deps: {
    config: Config;
    models: Models;
    store: KeyValueStore;
    settings: SettingsService;
    logger: Logger;
}): {
    signingKey: crypto.KeyObject;
    algorithm: "HS256";
    issue: (user: Pick<User, "id" | "email" | "role" | "tokenEpoch">) => Promise<IssuedToken>;
    verify: (token: string, verifiedPayload?: unknown) => Promise<{
        user: AuthUser;
        claims: AccessClaims;
    } | null>;
    checkForRefresh: (token: string) => Promise<RefreshCheck>;
    revokeToken: (token: string, claims: AccessClaims) => Promise<void>;
    revokeAllForUser: (userId: string, options?: {
        transaction?: Transaction;
    }) => Promise<void>;
    userChanged: (userId: string) => Promise<void>;
};
export type TokenService = ReturnType<typeof createTokenService>;
export type { Role };
