"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SECRET_MASK = exports.PLUGIN_NAMES = exports.PLUGINS = void 0;
const email_plugin_1 = require("./email.plugin");
const otp_login_plugin_1 = require("./otp-login.plugin");
const oauth_providers_plugin_1 = require("./oauth-providers.plugin");
/** Every plugin the service knows, in the order the admin pages list them. */
exports.PLUGINS = [email_plugin_1.emailPlugin, otp_login_plugin_1.otpLoginPlugin, oauth_providers_plugin_1.oauthProvidersPlugin];
exports.PLUGIN_NAMES = exports.PLUGINS.map((plugin) => plugin.name);
var plugin_definition_1 = require("./plugin-definition");
Object.defineProperty(exports, "SECRET_MASK", { enumerable: true, get: function () { return plugin_definition_1.SECRET_MASK; } });
//# sourceMappingURL=index.js.map