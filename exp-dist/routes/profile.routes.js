"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.profileRoutes = profileRoutes;
const zod_1 = require("zod");
const api_router_1 = require("../http/api-router");
const app_error_1 = require("../http/app-error");
const permissions_1 = require("../auth/permissions");
const profile_validator_1 = require("../profiles/profile-validator");
// Custom data is checked field by field by the profile validator, which knows the definition;
// here it only has to be an object. Its keys are copied by that validator, never by zod.
// (z.unknown, not z.record: a record would copy a `__proto__` key through its setter.)
const customData = zod_1.z
    .unknown()
    .refine(profile_validator_1.isPlainObject, { message: 'must be an object' })
    .transform((value) => value);
const nullableText = (max) => zod_1.z.string().max(max).nullable().optional();
const builtInProfile = zod_1.z.strictObject({
    display_name: nullableText(255),
    bio: nullableText(10_000),
    company: nullableText(255),
    job_title: nullableText(255),
    website: nullableText(1024),
    location: nullableText(255),
    date_of_birth: zod_1.z.number().int().nullable().optional(),
});
const profileParams = zod_1.z.object({ userId: zod_1.z.string().min(1).max(64) });
const profileUpdate = zod_1.z
    .strictObject({ customData: customData.optional(), profile: builtInProfile.optional() })
    .refine((body) => body.customData !== undefined || body.profile !== undefined, { message: 'customData or profile is required' });
const profileView = zod_1.z.object({ userId: zod_1.z.string(), customData: zod_1.z.record(zod_1.z.string(), zod_1.z.unknown()), profile: builtInProfile });
const FORBIDDEN = 'Forbidden';
/**
 * The owner or a holder of manage:users; anyone else gets 403 whether or not the id exists, so the
 * answer never tells a stranger which ids are real.
 */
const ownerOrUserManager = (req, _res, next) => {
    const user = req.user;
    if (user.id !== req.params.userId && !(0, permissions_1.can)(user.role, 'manage:users'))
        throw new app_error_1.AppError(403, FORBIDDEN);
    next();
};
/** SPEC 4.5 profile API. */
function profileRoutes(container) {
    const { profiles, guards } = container;
    const api = (0, api_router_1.createApiRouter)(container.docs, '/api/user-profiles');
    const tags = ['Profiles'];
    api.get('/schema', { summary: 'Custom profile field definitions', tags, responses: { 200: 'fields and registrationFields' } }, (_req, res) => {
        res.json(profiles.schema());
    });
    api.get('/:userId', { summary: "A user's profile", tags, auth: true, params: profileParams, responses: { 200: { description: 'profile', schema: profileView }, 403: 'not the owner', 404: 'no such user' } }, guards.requireAuth, ownerOrUserManager, async (req, res) => {
        res.json(await profiles.get(req.params.userId));
    });
    api.put('/:userId', {
        summary: "Update a user's profile (custom data is merged, then validated as a whole)",
        tags,
        auth: true,
        params: profileParams,
        body: profileUpdate,
        responses: { 200: { description: 'profile', schema: profileView }, 400: 'validation failed', 403: 'not the owner', 404: 'no such user' },
    }, guards.requireAuth, ownerOrUserManager, async (req, res) => {
        res.json(await profiles.update(req.params.userId, req.body));
    });
    return api.router;
}
//# sourceMappingURL=profile.routes.js.map