'use strict';
// The floor for the login benchmark: bare Express doing only what any password sign-in must (parse the
// JSON body, one async PBKDF2 hash at the service's iteration count, sign a JWT, answer JSON), with no
// database, store, limit, cookie, log or audit row. Started by bench/run.js beside the PBKDF2 ceiling, so
// the bench shows how much of the gap to the ceiling is the HTTP stack itself.
const crypto = require('node:crypto');
const express = require('express');
const jwt = require('jsonwebtoken');

const port = Number(process.env.PORT);
const iterations = Number(process.env.ITERATIONS);
const secret = crypto.randomBytes(32).toString('hex');
const salt = crypto.randomBytes(16);
const expected = crypto.pbkdf2Sync(process.env.BENCH_PASSWORD, salt, iterations, 32, 'sha256');

const app = express();
app.use(express.json());
app.post('/auth/login', (req, res, next) => {
  crypto.pbkdf2(String(req.body.password), salt, iterations, 32, 'sha256', (err, key) => {
    if (err) return next(err);
    if (!crypto.timingSafeEqual(key, expected)) return res.status(401).json({ error: 'Invalid email or password' });
    const token = jwt.sign({ sub: req.body.email, jti: crypto.randomUUID() }, secret, { algorithm: 'HS256', expiresIn: '1h' });
    return res.json({ user: { email: req.body.email }, token });
  });
});
// The probe the login-load step times beside the logins (a small JSON answer, as /auth/me is).
app.get('/auth/me', (_req, res) => res.json({ user: { id: 'bare', email: 'bare@example.test', username: 'bare', role: 'viewer' } }));
app.listen(port, '127.0.0.1', () => {
  process.send?.('ready');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
