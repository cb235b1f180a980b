'use strict';
// Creates the first admin from ADMIN_EMAIL / ADMIN_PASSWORD when both are set; does nothing otherwise,
// and never touches an existing account (running it twice is harmless).
// Seeders stand alone (no imports from src/), so the stored password format of SPEC 5.5 is produced here:
// pbkdf2:<iterations>:<salt_hex>:<hash_hex>, PBKDF2-SHA256, 16-byte salt, 256-bit key.
const crypto = require('node:crypto');
const { promisify } = require('node:util');

const pbkdf2 = promisify(crypto.pbkdf2);

async function hashPassword(password, iterations) {
  const salt = crypto.randomBytes(16);
  // The NFKC form, as the service hashes and checks every password.
  const hash = await pbkdf2(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  return `pbkdf2:${iterations}:${salt.toString('hex')}:${hash.toString('hex')}`;
}

module.exports = {
  async up(queryInterface) {
    const email = (process.env.ADMIN_EMAIL || '').trim().toLowerCase();
    const password = process.env.ADMIN_PASSWORD || '';
    if (!email || !password) {
      console.log('ADMIN_EMAIL / ADMIN_PASSWORD not set: no admin seeded');
      return;
    }
    // The service refuses to sign in an address that is not one: an admin seeded with it could never sign in,
    // and its existence would close POST /auth/seed-admin, the other way to an admin.
    if (email.length > 255 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error('ADMIN_EMAIL must be an email address');
    if (password.length < 8) throw new Error('ADMIN_PASSWORD must be at least 8 characters');
    const [existing] = await queryInterface.sequelize.query('SELECT id, role FROM users WHERE email = ?', {
      replacements: [email],
    });
    if (existing.length > 0) {
      console.log(`${email} already exists (role ${existing[0].role}): left unchanged, its password not set`);
      return;
    }

    const iterations = Number(process.env.PASSWORD_PBKDF2_ITERATIONS) || 100000;
    const id = crypto.randomUUID();
    const now = new Date();
    // As the service names users (src/services/user.service.ts): safe characters, at least three of them.
    const cleaned = email.split('@')[0].replace(/[^a-z0-9_.-]/g, '').slice(0, 48);
    const baseName = cleaned.length === 0 ? 'admin' : cleaned.length < 3 ? `${cleaned}_user` : cleaned;
    const [taken] = await queryInterface.sequelize.query('SELECT id FROM users WHERE username = ?', {
      replacements: [baseName],
    });
    const username = taken.length > 0 ? `${baseName}-${id.slice(0, 8)}` : baseName;
    const transaction = await queryInterface.sequelize.transaction();
    try {
      await queryInterface.bulkInsert(
        'users',
        [{
          id,
          email,
          username,
          role: 'admin',
          active: true,
          password_hash: await hashPassword(password, iterations),
          token_epoch: 0,
          created_at: now,
          updated_at: now,
        }],
        { transaction },
      );
      await queryInterface.bulkInsert(
        'user_profiles',
        [{ user_id: id, data: '{}', created_at: now, updated_at: now }],
        { transaction },
      );
      await transaction.commit();
    } catch (err) {
      await transaction.rollback();
      throw err;
    }
  },

  async down(queryInterface) {
    const email = (process.env.ADMIN_EMAIL || '').trim().toLowerCase();
    if (email) await queryInterface.bulkDelete('users', { email });
  },
};
