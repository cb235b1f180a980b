'use strict';
// Configuration read by sequelize-cli (see .sequelizerc). Every environment name maps to DATABASE_URL.
const { connectionOptions } = require('./connection-options');
const options = { ...connectionOptions(process.env.DATABASE_URL), logging: false };
module.exports = { development: options, test: options, production: options };
//# sourceMappingURL=sequelize-cli.config.js.map