import type { Transaction } from 'sequelize';
import type { Models } from '../models';
import type { AuthUser } from '../auth/auth-user';
import type { TokenService } from '../auth/token.service';
import { type NormalizedProfileDefinition } from './profile-definition';
import { type ProfileValidationResult } from './profile-validator';
/** SPEC 2.3 built-in profile columns, by their API (snake_case) names. */
export interface BuiltInProfile {
    display_name?: string | null;
    bio?: string | null;
    company?: string | null;
    job_title?: string | null;
    website?: string | null;
    location?: string | null;
    date_of_birth?: number | null;
}
/** The profile as the API shows it: custom data with defaults, and the built-in columns. */
export interface ProfileView {
    userId: string;
    customData: Record<string, unknown>;
    profile: Required<BuiltInProfile>;
}
/**
 * Custom profile fields (SPEC 2.3–2.4) over `user_profiles`: defaults, validation of the merged data,
 * and the user shape answered by /auth/me. The definition is fixed at boot.
 */
export declare function createProfileService(deps: {
    definition: NormalizedProfileDefinition;
    models: Models;
    tokens: TokenService;
}): {
    definition: NormalizedProfileDefinition;
    schema: () => {
        fields: readonly import("./profile-definition").NormalizedProfileField[];
        registrationFields: readonly string[];
        builtInFields: readonly import("./profile-definition").BuiltInProfileField[];
    };
    registrationFields: () => import("./profile-definition").NormalizedProfileField[];
    validateRegistration: (extraFields: Record<string, unknown>) => ProfileValidationResult;
    createForUser: (userId: string, data: Record<string, unknown>, transaction?: Transaction) => Promise<void>;
    presentUser: (user: Pick<AuthUser, "id" | "email" | "username" | "firstName" | "lastName" | "role" | "profileData">) => {
        id: string;
        email: string;
        username: string;
        firstName: string | null;
        lastName: string | null;
        role: "admin" | "editor" | "author" | "viewer";
    };
    get: (userId: string) => Promise<ProfileView>;
    update: (userId: string, changes: {
        customData?: Record<string, unknown>;
        profile?: BuiltInProfile;
    }) => Promise<ProfileView>;
};
export type ProfileService = ReturnType<typeof createProfileService>;
