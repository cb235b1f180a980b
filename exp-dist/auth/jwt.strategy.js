"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createJwtStrategy = createJwtStrategy;
const passport_jwt_1 = require("passport-jwt");
const credentials_1 = require("./credentials");
/**
 * passport-jwt checks the signature and expiry (HS256 only, with the token service's KeyObject); the
 * verify step then applies what a bare JWT cannot know: revocation, the user's current state and the
 * verification cache.
 */
function createJwtStrategy(tokens) {
    return new passport_jwt_1.Strategy({
        jwtFromRequest: credentials_1.extractToken,
        secretOrKeyProvider: (_req, _raw, done) => done(null, tokens.signingKey),
        algorithms: [tokens.algorithm],
        passReqToCallback: true,
    }, (req, payload, done) => {
        const token = (0, credentials_1.extractToken)(req);
        tokens.verify(token, payload).then((result) => {
            if (!result)
                return done(null, false);
            req.tokenClaims = result.claims;
            req.authToken = token;
            return done(null, result.user);
        }, (err) => done(err));
    });
}
//# sourceMappingURL=jwt.strategy.js.map