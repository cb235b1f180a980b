"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createContainer = createContainer;
const settings_service_1 = require("./services/settings.service");
const activity_service_1 = require("./services/activity.service");
const token_service_1 = require("./auth/token.service");
const passport_1 = require("./auth/passport");
const guards_1 = require("./middleware/guards");
const rate_limit_1 = require("./middleware/rate-limit");
const mailer_1 = require("./services/mailer");
const password_reset_service_1 = require("./services/password-reset.service");
const password_service_1 = require("./auth/password.service");
const password_login_1 = require("./auth/password-login");
const user_service_1 = require("./services/user.service");
const auth_service_1 = require("./services/auth.service");
const csrf_1 = require("./middleware/csrf");
const cookies_1 = require("./auth/cookies");
const plugin_registry_1 = require("./plugins/plugin-registry");
const user_admin_service_1 = require("./services/user-admin.service");
const collection_service_1 = require("./services/collection.service");
const content_service_1 = require("./services/content.service");
const api_router_1 = require("./http/api-router");
const profile_service_1 = require("./profiles/profile.service");
const profile_definition_1 = require("./profiles/profile-definition");
/** The composition root: every service gets its collaborators here, and only here. */
function createContainer(deps) {
    const { config, logger, models, store } = deps;
    const settings = (0, settings_service_1.createSettingsService)({ config, models });
    const activity = (0, activity_service_1.createActivityService)({ models, logger });
    const plugins = (0, plugin_registry_1.createPluginRegistry)({ models, activity });
    const tokens = (0, token_service_1.createTokenService)({ config, models, store, settings, logger });
    const passwords = (0, password_service_1.createPasswordService)({ iterations: config.passwordIterations });
    const passport = (0, passport_1.createPassport)({ tokens, passwordLogin: (0, password_login_1.createPasswordLogin)({ models, passwords, logger }) });
    const guards = (0, guards_1.createGuards)(passport, [passport_1.STRATEGY.jwt]);
    const profiles = (0, profile_service_1.createProfileService)({ definition: deps.profileDefinition ?? profile_definition_1.EMPTY_PROFILE_DEFINITION, models, tokens });
    const users = (0, user_service_1.createUserService)({ sequelize: deps.sequelize, models, passwords, profiles, logger });
    const userAdmin = (0, user_admin_service_1.createUserAdminService)({ sequelize: deps.sequelize, models, tokens, activity, users });
    const collections = (0, collection_service_1.createCollectionService)({ models });
    const content = (0, content_service_1.createContentService)({ models });
    const auth = (0, auth_service_1.createAuthService)({ config, users, tokens, settings, activity, profiles });
    const csrf = (0, csrf_1.createCsrf)({ secret: config.jwtSecret, tokens });
    const cookies = (0, cookies_1.createAuthCookies)({ secure: config.isProduction, csrf });
    const docs = new api_router_1.ApiDocs({ title: 'Auth service API', version: '1.0.0' });
    const limits = (0, rate_limit_1.createRateLimits)({ store, logger });
    const mailer = (0, mailer_1.createMailer)({ config, logger });
    const passwordReset = (0, password_reset_service_1.createPasswordResetService)({
        config, sequelize: deps.sequelize, models, activity, mailer, logger,
        hashPassword: passwords.hash,
        revokeAllForUser: tokens.revokeAllForUser,
    });
    return { ...deps, settings, activity, tokens, passport, guards, docs, profiles, limits, mailer, passwordReset, plugins, passwords, users, auth, csrf, cookies, userAdmin, collections, content };
}
//# sourceMappingURL=container.js.map