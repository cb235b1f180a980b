"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.INVALID_CREDENTIALS = void 0;
exports.createLocalStrategy = createLocalStrategy;
const passport_local_1 = require("passport-local");
exports.INVALID_CREDENTIALS = 'Invalid email or password';
/**
 * passport-local over `email` + `password` from the (already validated) body; no server session.
 * Wrong credentials are a `fail` carrying the outcome; a thrown error is an `error`.
 */
function createLocalStrategy(login) {
    return new passport_local_1.Strategy({ usernameField: 'email', passwordField: 'password', session: false }, (email, password, done) => {
        login.check(email, password).then((result) => {
            const info = { message: exports.INVALID_CREDENTIALS, result };
            return result.ok ? done(null, result.user, info) : done(null, false, info);
        }, (err) => done(err));
    });
}
//# sourceMappingURL=local.strategy.js.map