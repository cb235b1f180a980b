"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.STRATEGY = void 0;
exports.createPassport = createPassport;
const passport_1 = require("passport");
const jwt_strategy_1 = require("./jwt.strategy");
const local_strategy_1 = require("./local.strategy");
/** Strategy names, so routes never spell them twice. */
exports.STRATEGY = { jwt: 'jwt', local: 'local' };
/**
 * The one place strategies are registered. Each app gets its own Passport instance (not the module
 * singleton), so two apps in one process never share strategies. No server sessions: tokens are stateless.
 */
function createPassport(deps) {
    const passport = new passport_1.Passport();
    passport.use(exports.STRATEGY.jwt, (0, jwt_strategy_1.createJwtStrategy)(deps.tokens));
    passport.use(exports.STRATEGY.local, (0, local_strategy_1.createLocalStrategy)(deps.passwordLogin));
    return passport;
}
//# sourceMappingURL=passport.js.map