'use strict';
/*
 * `npm run users:import -- <file> [--mode upsert]` and `npm run users:export -- <file>` (CONTRACT 17): the same
 * import and export as POST /api/users/import and GET /api/users/export, run by the built service's own services
 * with the configuration `npm start` uses (DATABASE_URL, REDIS_URL, AUTH_CONFIG for the profile fields, …).
 * A file ending in .json is read as a JSON array, anything else as NDJSON; `-` is standard input or output.
 * On a terminal a progress bar shows the bytes read (import) or users written (export); the import prints the same
 * summary as the API's answer, as JSON, and exits 1 when any record failed. The activity row names no actor (`via: cli`).
 */
const fs = require('node:fs');
const { pipeline } = require('node:stream/promises');
const { Transform } = require('node:stream');
const cliProgress = require('cli-progress');

const { load, withService } = require('./built-service');
const USAGE = 'usage: users-transfer.js import <file> [--mode create|upsert] | export <file>';

function parseArguments(argv) {
  const [command, file, ...rest] = argv;
  if (!['import', 'export'].includes(command) || !file) throw new Error(USAGE);
  let mode = 'create';
  for (let at = 0; at < rest.length; at += 1) {
    if (rest[at] === '--mode' && command === 'import') mode = rest[(at += 1)];
    else if (rest[at].startsWith('--mode=') && command === 'import') mode = rest[at].slice('--mode='.length);
    else throw new Error(`unknown argument ${rest[at]}\n${USAGE}`);
  }
  if (!['create', 'upsert'].includes(mode)) throw new Error(`--mode must be create or upsert\n${USAGE}`);
  return { command, file, mode };
}

/** A bar on a terminal only: piped output (a log, CI) gets the summary alone. */
function progressBar(total, unit) {
  if (!process.stderr.isTTY) return null;
  const bar = new cliProgress.SingleBar({ format: `{bar} {percentage}% | {value}/{total} ${unit} | {details}`, stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic);
  bar.start(total, 0, { details: '' });
  return bar;
}

async function runImport(container, file, mode) {
  const input = file === '-' ? process.stdin : fs.createReadStream(file);
  const size = file === '-' ? 0 : fs.statSync(file).size;
  const bar = size > 0 ? progressBar(Math.ceil(size / 1024), 'KiB') : null;
  let read = 0;
  // Counts the bytes as the import pulls them, so the bar follows the reading (the import reads at the database's pace).
  const counted = input.pipe(
    new Transform({
      transform(chunk, _encoding, done) {
        read += chunk.length;
        done(null, chunk);
      },
    }),
  );
  const format = file.toLowerCase().endsWith('.json') ? 'json-array' : 'ndjson';
  try {
    const summary = await container.userImport.importUsers(
      counted,
      {
        format,
        mode,
        // The API's 50 MB bounds what one request holds in flight; a file read here may be as large as the operator's.
        limitBytes: Number.POSITIVE_INFINITY,
        onProgress: (so) => bar?.update(Math.ceil(read / 1024), { details: `created ${so.created}, updated ${so.updated}, skipped ${so.skipped}, failed ${so.failed}` }),
      },
      { actor: null, context: { ip: null, userAgent: 'users-transfer cli' } },
    );
    bar?.update(Math.ceil(size / 1024));
    bar?.stop();
    // The new users' search trigrams, before this process ends (a running service would write them within a minute).
    if (summary.created > 0) process.stderr.write('Indexing the new users for search…\n');
    await container.searchIndex.fill();
    await container.searchIndex.stop();
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return summary.failed > 0 ? 1 : 0;
  } catch (err) {
    bar?.stop();
    // A refusal of the service's own: its message, and the counts so far when it has them.
    if (err && err.name === 'AppError') {
      process.stderr.write(`${err.message}\n`);
      if (err.options && err.options.body) process.stdout.write(`${JSON.stringify(err.options.body, null, 2)}\n`);
      return 1;
    }
    throw err;
  }
}

async function runExport(container, models, file) {
  const total = await models.User.count();
  const bar = file === '-' ? null : progressBar(total, 'users');
  let written = 0;
  const lines = async function* () {
    for await (const page of container.userExport.exportUsers({ actor: null, context: { ip: null, userAgent: 'users-transfer cli' } })) {
      written += page.split('\n').length - 1;
      bar?.update(Math.min(written, total));
      yield page;
    }
  };
  await pipeline(lines, file === '-' ? process.stdout : fs.createWriteStream(file, { mode: 0o600 }));
  bar?.stop();
  process.stderr.write(`Exported ${written} users${file === '-' ? '' : ` to ${file}`}\n`);
  return 0;
}

async function main() {
  const { command, file, mode } = parseArguments(process.argv.slice(2));
  const { loadProfileDefinition } = load('config/auth-config');
  const { createContainer } = load('container');
  return withService(async ({ config, logger, sequelize, models, store }) => {
    const container = createContainer({ config, logger, sequelize, models, store, profileDefinition: loadProfileDefinition(config.authConfigPath) });
    return command === 'import' ? runImport(container, file, mode) : runExport(container, models, file);
  });
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`users-transfer failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
