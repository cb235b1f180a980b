import { type ModelAttributeColumnOptions } from 'sequelize';
/**
 * A JSON value kept as TEXT. MariaDB reports its JSON type as LONGTEXT, so mysql2 hands back strings
 * there while SQLite hands back whatever Sequelize wrote; TEXT plus explicit (de)serialisation is the
 * same on both.
 */
export declare function jsonColumn(name: string, fallback: unknown, allowNull?: boolean): ModelAttributeColumnOptions;
