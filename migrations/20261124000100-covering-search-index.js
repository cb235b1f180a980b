'use strict';

// The user search reads, in one scan of the search index, the id and creation time of every match (up
// to a bound), and cuts the page from them (src/services/user-admin.service.ts). With both columns in
// the index the scan never visits the table: on MariaDB a search index without created_at made the
// optimizer read the whole table instead.
module.exports = {
  async up(queryInterface) {
    await queryInterface.addIndex('users', ['search_text', 'created_at', 'id'], { name: 'users_search_text_created_at_id' });
    await queryInterface.removeIndex('users', 'users_search_text');
  },

  async down(queryInterface) {
    await queryInterface.addIndex('users', ['search_text'], { name: 'users_search_text' });
    await queryInterface.removeIndex('users', 'users_search_text_created_at_id');
  },
};
