"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createProfileService = createProfileService;
const app_error_1 = require("../http/app-error");
const profile_definition_1 = require("./profile-definition");
const profile_validator_1 = require("./profile-validator");
const COLUMN_OF = {
    display_name: 'displayName',
    bio: 'bio',
    company: 'company',
    job_title: 'jobTitle',
    website: 'website',
    location: 'location',
    date_of_birth: 'dateOfBirth',
};
/**
 * Custom profile fields (SPEC 2.3–2.4) over `user_profiles`: defaults, validation of the merged data,
 * and the user shape answered by /auth/me. The definition is fixed at boot.
 */
function createProfileService(deps) {
    const { definition, models, tokens } = deps;
    /** The configured definitions for clients (hidden fields included and marked). */
    function schema() {
        return {
            fields: definition.fields,
            registrationFields: definition.registrationFields,
            builtInFields: profile_definition_1.BUILT_IN_PROFILE_FIELDS,
        };
    }
    /** The custom fields shown on the registration form, in order. */
    function registrationFields() {
        return (0, profile_definition_1.registrationFieldDefinitions)(definition);
    }
    /** Validates the registration form's custom fields; any key outside registrationFields is unknown. */
    function validateRegistration(extraFields) {
        return (0, profile_validator_1.validateProfileData)(definition, extraFields, { only: definition.registrationFields });
    }
    /** Creates the profile row of a new user, with every field's default filled in (listed on the form or not). */
    async function createForUser(userId, data, transaction) {
        await models.UserProfile.create({ userId, data: (0, profile_validator_1.applyDefaults)(definition, data) }, { transaction });
    }
    /** The public user merged with custom profile fields (custom names never shadow standard ones). */
    function presentUser(user) {
        return {
            ...(0, profile_validator_1.applyDefaults)(definition, user.profileData),
            id: user.id,
            email: user.email,
            username: user.username,
            firstName: user.firstName,
            lastName: user.lastName,
            role: user.role,
        };
    }
    function toView(userId, row) {
        const profile = Object.fromEntries(Object.entries(COLUMN_OF).map(([name, column]) => [name, row ? (row.get(column) ?? null) : null]));
        return { userId, customData: (0, profile_validator_1.applyDefaults)(definition, row?.data ?? {}), profile };
    }
    /** The profile of an existing user; 404 when the user does not exist. */
    async function get(userId) {
        const user = await models.User.findByPk(userId, { attributes: ['id'] });
        if (!user)
            throw app_error_1.AppError.notFound('User not found');
        return toView(userId, await models.UserProfile.findByPk(userId));
    }
    /**
     * Merges `customData` into the stored data and validates the merged result (so a required field
     * already stored need not be sent again); built-in columns are replaced field by field.
     */
    async function update(userId, changes) {
        const view = await models.UserProfile.sequelize.transaction(async (transaction) => {
            const user = await models.User.findByPk(userId, { attributes: ['id'], transaction });
            if (!user)
                throw app_error_1.AppError.notFound('User not found');
            const row = (await models.UserProfile.findByPk(userId, { transaction, lock: true })) ??
                (await models.UserProfile.create({ userId, data: (0, profile_validator_1.applyDefaults)(definition, {}) }, { transaction }));
            if (changes.customData) {
                // Defaults count as stored: a profile made before a field existed still satisfies its `required`.
                const merged = (0, profile_validator_1.applyDefaults)(definition, (0, profile_validator_1.mergeProfileData)(row.data, changes.customData));
                const result = (0, profile_validator_1.validateProfileData)(definition, merged);
                if (!result.ok)
                    throw app_error_1.AppError.validation(result.errors);
                row.data = result.value;
            }
            for (const [name, value] of Object.entries(changes.profile ?? {})) {
                row.set(COLUMN_OF[name], value);
            }
            await row.save({ transaction });
            return toView(userId, row);
        });
        // /auth/me answers from the verification cache; the user's cached shape is now stale.
        await tokens.userChanged(userId);
        return view;
    }
    return { definition, schema, registrationFields, validateRegistration, createForUser, presentUser, get, update };
}
//# sourceMappingURL=profile.service.js.map