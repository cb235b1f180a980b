"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.jsonColumn = jsonColumn;
const sequelize_1 = require("sequelize");
/**
 * A JSON value kept as TEXT. MariaDB reports its JSON type as LONGTEXT, so mysql2 hands back strings
 * there while SQLite hands back whatever Sequelize wrote; TEXT plus explicit (de)serialisation is the
 * same on both.
 */
function jsonColumn(name, fallback, allowNull = false) {
    return {
        type: sequelize_1.DataTypes.TEXT,
        allowNull,
        get() {
            const raw = this.getDataValue(name);
            if (raw === null || raw === undefined)
                return allowNull ? null : structuredClone(fallback);
            return typeof raw === 'string' ? JSON.parse(raw) : raw;
        },
        set(value) {
            this.setDataValue(name, value === null && allowNull ? null : JSON.stringify(value ?? fallback));
        },
    };
}
//# sourceMappingURL=json-column.js.map