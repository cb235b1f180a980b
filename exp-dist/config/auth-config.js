"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadProfileDefinition = loadProfileDefinition;
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const config_1 = require("./config");
const profile_definition_1 = require("../profiles/profile-definition");
/**
 * Reads the AUTH_CONFIG file (`.json`, or `.js` whose export is `{ userProfile }`) once at boot and
 * validates the profile definition; any problem becomes a ConfigError naming the file and field.
 */
function loadProfileDefinition(configPath) {
    if (!configPath)
        return profile_definition_1.EMPTY_PROFILE_DEFINITION;
    const file = node_path_1.default.resolve(configPath);
    let exported;
    try {
        if (file.endsWith('.json'))
            exported = JSON.parse(node_fs_1.default.readFileSync(file, 'utf8'));
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        else if (file.endsWith('.js') || file.endsWith('.cjs'))
            exported = require(file);
        else
            throw new Error('must be a .js or .json file');
    }
    catch (err) {
        throw new config_1.ConfigError(`Invalid configuration: AUTH_CONFIG (${file}) ${err.message.split('\n')[0]}`);
    }
    try {
        return (0, profile_definition_1.validateAuthConfig)(exported).userProfile;
    }
    catch (err) {
        if (err instanceof profile_definition_1.ProfileDefinitionError)
            throw new config_1.ConfigError(`Invalid configuration: AUTH_CONFIG (${file}): ${err.message}`);
        throw err;
    }
}
//# sourceMappingURL=auth-config.js.map