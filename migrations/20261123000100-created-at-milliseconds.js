'use strict';

// Lists are ordered newest first by created_at. MariaDB's DATETIME keeps whole seconds, so rows made in
// the same second came back in random order there; DATETIME(3) keeps the milliseconds Sequelize writes.
// SQLite already stores them (ISO text), so this is a no-op there.
const COLUMNS = [
  ['users', 'created_at'],
  ['content', 'created_at'],
];

module.exports = {
  async up(queryInterface, Sequelize) {
    if (queryInterface.sequelize.getDialect() !== 'mysql') return;
    for (const [table, column] of COLUMNS) {
      await queryInterface.changeColumn(table, column, { type: Sequelize.DATE(3), allowNull: false });
    }
  },

  async down(queryInterface, Sequelize) {
    if (queryInterface.sequelize.getDialect() !== 'mysql') return;
    for (const [table, column] of COLUMNS) {
      await queryInterface.changeColumn(table, column, { type: Sequelize.DATE, allowNull: false });
    }
  },
};
