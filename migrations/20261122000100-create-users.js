'use strict';

/** Users and their built-in profile row (SPEC 2.1, 2.3). */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('users', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      email: { type: Sequelize.STRING(255), allowNull: false, unique: true },
      username: { type: Sequelize.STRING(64), allowNull: false, unique: true },
      first_name: { type: Sequelize.STRING(100), allowNull: true },
      last_name: { type: Sequelize.STRING(100), allowNull: true },
      role: { type: Sequelize.STRING(16), allowNull: false, defaultValue: 'viewer' },
      active: { type: Sequelize.BOOLEAN, allowNull: false, defaultValue: true },
      password_hash: { type: Sequelize.STRING(255), allowNull: true },
      // Raised to revoke every token issued before; tokens carry the epoch they were issued under.
      token_epoch: { type: Sequelize.INTEGER, allowNull: false, defaultValue: 0 },
      avatar_url: { type: Sequelize.STRING(1024), allowNull: true },
      last_login_at: { type: Sequelize.DATE, allowNull: true },
      created_at: { type: Sequelize.DATE, allowNull: false },
      updated_at: { type: Sequelize.DATE, allowNull: false },
    });
    await queryInterface.addIndex('users', ['role']);

    await queryInterface.createTable('user_profiles', {
      user_id: {
        type: Sequelize.STRING(36),
        primaryKey: true,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
      },
      display_name: { type: Sequelize.STRING(255), allowNull: true },
      bio: { type: Sequelize.TEXT, allowNull: true },
      company: { type: Sequelize.STRING(255), allowNull: true },
      job_title: { type: Sequelize.STRING(255), allowNull: true },
      website: { type: Sequelize.STRING(1024), allowNull: true },
      location: { type: Sequelize.STRING(255), allowNull: true },
      date_of_birth: { type: Sequelize.BIGINT, allowNull: true },
      // Custom profile fields as JSON text (TEXT on both databases, so both return the same string).
      data: { type: Sequelize.TEXT, allowNull: false },
      created_at: { type: Sequelize.DATE, allowNull: false },
      updated_at: { type: Sequelize.DATE, allowNull: false },
    });
  },

  async down(queryInterface) {
    await queryInterface.dropTable('user_profiles');
    await queryInterface.dropTable('users');
  },
};
