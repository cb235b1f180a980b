'use strict';

// Plugins start inactive with empty settings; the service fills in each plugin's declared defaults on read.
const PLUGINS = ['email', 'otp-login', 'oauth-providers'];

module.exports = {
  async up(queryInterface) {
    const [rows] = await queryInterface.sequelize.query('SELECT name FROM plugins');
    const existing = new Set(rows.map((row) => row.name));
    const now = new Date();
    const missing = PLUGINS.filter((name) => !existing.has(name)).map((name) => ({
      name,
      active: false,
      settings: '{}',
      created_at: now,
      updated_at: now,
    }));
    if (missing.length > 0) await queryInterface.bulkInsert('plugins', missing);
  },

  async down(queryInterface, Sequelize) {
    await queryInterface.bulkDelete('plugins', { name: { [Sequelize.Op.in]: PLUGINS } });
  },
};
