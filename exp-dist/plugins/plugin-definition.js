"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SECRET_MASK = void 0;
exports.definePlugin = definePlugin;
/** What a secret looks like when read through the API. Sent back unchanged, it keeps the stored secret. */
exports.SECRET_MASK = '********';
/** Declares a plugin (an identity function that keeps the schema's type). */
function definePlugin(definition) {
    return definition;
}
//# sourceMappingURL=plugin-definition.js.map