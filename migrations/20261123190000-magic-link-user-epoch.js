'use strict';

// A magic link dies with a logout-all, a password reset, a role change or a deactivation: each moves the
// user's token epoch on, and the link remembers the epoch it was issued under (0 for an email that had no
// account yet, which is what a new account starts with).
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.addColumn('auth_verification', 'user_epoch', {
      type: Sequelize.INTEGER,
      allowNull: false,
      defaultValue: 0,
    });
  },

  async down(queryInterface) {
    await queryInterface.removeColumn('auth_verification', 'user_epoch');
  },
};
