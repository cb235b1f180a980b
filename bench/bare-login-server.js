'use strict';
// The floor for the login benchmark, as issue 34 names it: a bare passport-local login. Express parses the JSON
// body, passport-local's strategy runs one async PBKDF2 hash at the service's iteration count, and the answer is a
// signed JWT; no database, store, limit, cookie, log or audit row. Started by bench/run.js beside the PBKDF2
// ceiling, so the bench shows how much of the gap to the ceiling is the HTTP stack itself.
const crypto = require('node:crypto');
const express = require('express');
const jwt = require('jsonwebtoken');
const passport = require('passport');
const { Strategy: LocalStrategy } = require('passport-local');

const port = Number(process.env.PORT);
const iterations = Number(process.env.ITERATIONS);
const secret = crypto.randomBytes(32).toString('hex');
const salt = crypto.randomBytes(16);
const expected = crypto.pbkdf2Sync(process.env.BENCH_PASSWORD, salt, iterations, 32, 'sha256');

passport.use(
  new LocalStrategy({ usernameField: 'email', session: false }, (email, password, done) => {
    crypto.pbkdf2(password, salt, iterations, 32, 'sha256', (err, key) => {
      if (err) return done(err);
      return done(null, crypto.timingSafeEqual(key, expected) ? { email } : false);
    });
  }),
);

const app = express();
app.use(express.json());
app.use(passport.initialize());
app.post('/auth/login', passport.authenticate('local', { session: false, failWithError: true }), (req, res) => {
  const token = jwt.sign({ sub: req.user.email, jti: crypto.randomUUID() }, secret, { algorithm: 'HS256', expiresIn: '1h' });
  res.json({ user: { email: req.user.email }, token });
});
// The probe the login-load step times beside the logins (a small JSON answer, as /auth/me is).
app.get('/auth/me', (_req, res) => res.json({ user: { id: 'bare', email: 'bare@example.test', username: 'bare', role: 'viewer' } }));
// passport answers a wrong password with an error of status 401 (failWithError): the same answer as before.
app.use((err, _req, res, _next) => res.status(err.status || 500).json({ error: err.status === 401 ? 'Invalid email or password' : 'Internal error' }));
app.listen(port, '127.0.0.1', () => {
  process.send?.('ready');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
