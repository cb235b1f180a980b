'use strict';
/*
 * `npm run keys:rotate` (CONTRACT 11): makes a new token signing key with the configuration `npm start`
 * uses (JWT_ALGORITHM, JWT_SECRET, DATABASE_URL, REDIS_URL). Every instance signs with it from its next
 * token on (with Redis; the embedded in-process store: within a minute); older keys keep verifying until
 * the last token they signed is past its expiry and refresh grace. Prints the new kid, one line.
 */
const { load, withService } = require('./built-service');

async function main() {
  const { standaloneSigningKeys } = load('services/security/signing-key-start');
  await withService(async ({ config, logger, sequelize, models, store }) => {
    const keys = standaloneSigningKeys({ config, sequelize, models, store, logger });
    await keys.prepare();
    const key = await keys.rotate();
    process.stdout.write(`New signing key ${key.kid} (${key.algorithm}): signing from now on\n`);
  });
}

main().catch((err) => {
  process.stderr.write(`Key rotation failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
