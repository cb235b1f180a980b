'use strict';

/** Collections and content items: the resources the permission matrix governs. */
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable('collections', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      name: { type: Sequelize.STRING(100), allowNull: false, unique: true },
      description: { type: Sequelize.TEXT, allowNull: true },
      created_at: { type: Sequelize.DATE, allowNull: false },
      updated_at: { type: Sequelize.DATE, allowNull: false },
    });

    await queryInterface.createTable('content', {
      id: { type: Sequelize.STRING(36), primaryKey: true, allowNull: false },
      title: { type: Sequelize.STRING(255), allowNull: false },
      body: { type: Sequelize.TEXT, allowNull: true },
      status: { type: Sequelize.STRING(16), allowNull: false, defaultValue: 'draft' },
      collection_id: {
        type: Sequelize.STRING(36),
        allowNull: true,
        references: { model: 'collections', key: 'id' },
        onDelete: 'SET NULL',
      },
      // Content stays when its author is deleted; it becomes authorless.
      author_id: {
        type: Sequelize.STRING(36),
        allowNull: true,
        references: { model: 'users', key: 'id' },
        onDelete: 'SET NULL',
      },
      created_at: { type: Sequelize.DATE, allowNull: false },
      updated_at: { type: Sequelize.DATE, allowNull: false },
    });
    await queryInterface.addIndex('content', ['status']);
    await queryInterface.addIndex('content', ['author_id']);
    await queryInterface.addIndex('content', ['collection_id']);
  },

  async down(queryInterface) {
    await queryInterface.dropTable('content');
    await queryInterface.dropTable('collections');
  },
};
