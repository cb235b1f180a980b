"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.defineUserProfile = exports.loadConfig = exports.createApp = void 0;
/** Package entry: build the app programmatically and define user profiles with types. */
var app_1 = require("./app");
Object.defineProperty(exports, "createApp", { enumerable: true, get: function () { return app_1.createApp; } });
var config_1 = require("./config/config");
Object.defineProperty(exports, "loadConfig", { enumerable: true, get: function () { return config_1.loadConfig; } });
var profile_definition_1 = require("./profiles/profile-definition");
Object.defineProperty(exports, "defineUserProfile", { enumerable: true, get: function () { return profile_definition_1.defineUserProfile; } });
//# sourceMappingURL=index.js.map