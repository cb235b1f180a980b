'use strict';
// The baseline for the /auth/me benchmark: bare Express answering the same JSON, nothing else
// (no helmet, cookie parser, body parser, logger, auth). Started by bench/run.js.
const express = require('express');

const port = Number(process.env.PORT);
const body = JSON.parse(process.env.BENCH_BODY);

const app = express();
app.get('/auth/me', (_req, res) => {
  res.json(body);
});
app.listen(port, '127.0.0.1', () => {
  process.send?.('ready');
});
// A normal exit on a signal (so --cpu-prof profiles get written).
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
