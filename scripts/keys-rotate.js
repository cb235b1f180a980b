'use strict';
/*
 * `npm run keys:rotate` (CONTRACT 11 and 14): makes new token signing keys with the configuration `npm start`
 * uses (JWT_ALGORITHM, JWT_SECRET, DATABASE_URL, REDIS_URL): the service's own under an asymmetric algorithm,
 * and the OpenID Provider's RS256 and ES256 keys whatever the algorithm (HS256 included). Every instance signs
 * with them from its next token on (with Redis; the embedded in-process store: within a minute); older keys keep
 * verifying until the last token they signed is past its expiry and grace. Prints what happened and each new kid.
 */
const { load, withService } = require('./built-service');

async function main() {
  const { standaloneKeyRotation } = load('services/security/signing-key-start');
  await withService(async ({ config, logger, sequelize, models, store }) => {
    const rotation = await (await standaloneKeyRotation({ config, sequelize, models, store, logger })).rotate();
    const keys = [...(rotation.key ? [rotation.key] : []), ...rotation.providerKeys];
    process.stdout.write(`${rotation.message}\n${keys.map((key) => `  ${key.kid} (${key.algorithm}, ${key.signs})\n`).join('')}`);
  });
}

main().catch((err) => {
  process.stderr.write(`Key rotation failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
