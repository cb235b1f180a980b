"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.createApp = createApp;
const node_path_1 = __importDefault(require("node:path"));
const express_1 = __importDefault(require("express"));
const cookie_parser_1 = __importDefault(require("cookie-parser"));
const container_1 = require("./container");
const request_logger_1 = require("./http/request-logger");
const security_headers_1 = require("./http/security-headers");
const body_parsing_1 = require("./http/body-parsing");
const error_handler_1 = require("./http/error-handler");
const health_routes_1 = require("./routes/health.routes");
const docs_routes_1 = require("./routes/docs.routes");
const profile_routes_1 = require("./routes/profile.routes");
const password_reset_routes_1 = require("./routes/password-reset.routes");
const auth_routes_1 = require("./routes/auth.routes");
const users_routes_1 = require("./routes/users.routes");
const collections_routes_1 = require("./routes/collections.routes");
const content_routes_1 = require("./routes/content.routes");
const activity_routes_1 = require("./routes/activity.routes");
const plugins_routes_1 = require("./routes/plugins.routes");
const settings_routes_1 = require("./routes/settings.routes");
const ROOT = node_path_1.default.resolve(__dirname, '..');
/** Builds the Express app from opened connections; never listens (server.ts does). */
function createApp(deps) {
    const container = (0, container_1.createContainer)(deps);
    const { config, logger } = container;
    const app = (0, express_1.default)();
    app.set('trust proxy', config.trustProxy);
    app.set('view engine', 'ejs');
    app.set('views', node_path_1.default.join(ROOT, 'views'));
    app.disable('x-powered-by');
    app.use((0, request_logger_1.requestLogger)(logger));
    app.use((0, security_headers_1.securityHeaders)(config.isProduction));
    app.use('/static', express_1.default.static(node_path_1.default.join(ROOT, 'public'), { maxAge: '1h' }));
    app.use((0, cookie_parser_1.default)());
    app.use((0, body_parsing_1.bodyParsing)());
    // Before every router, so each cookie-authenticated unsafe request (admin API included) is checked.
    app.use(container.csrf.protect);
    app.use((0, health_routes_1.healthRoutes)(container));
    app.use('/api/user-profiles', (0, profile_routes_1.profileRoutes)(container));
    app.use('/auth', (0, password_reset_routes_1.passwordResetRoutes)(container));
    app.use('/auth', (0, auth_routes_1.authRoutes)(container));
    app.use('/api', (0, users_routes_1.usersRoutes)(container));
    app.use('/api', (0, collections_routes_1.collectionsRoutes)(container));
    app.use('/api', (0, content_routes_1.contentRoutes)(container));
    app.use('/api', (0, activity_routes_1.activityRoutes)(container));
    app.use('/api', (0, plugins_routes_1.pluginsRoutes)(container));
    app.use('/api', (0, settings_routes_1.settingsRoutes)(container));
    // Documentation last among routes: every API router has registered its endpoints by then.
    app.use((0, docs_routes_1.docsRoutes)(container.docs));
    app.use(error_handler_1.notFoundHandler);
    app.use(error_handler_1.errorHandler);
    return app;
}
//# sourceMappingURL=app.js.map