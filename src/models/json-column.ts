import { DataTypes, type ModelAttributeColumnOptions } from 'sequelize';

/**
 * A JSON value kept as TEXT. MariaDB reports its JSON type as LONGTEXT, so mysql2 hands back strings
 * there while SQLite hands back whatever Sequelize wrote; TEXT plus explicit (de)serialisation is the
 * same on both.
 */
export function jsonColumn(name: string, fallback: unknown, allowNull = false): ModelAttributeColumnOptions {
  return {
    type: DataTypes.TEXT,
    allowNull,
    get(this: { getDataValue(key: string): unknown }) {
      const raw = this.getDataValue(name);
      if (raw === null || raw === undefined) return allowNull ? null : structuredClone(fallback);
      return typeof raw === 'string' ? JSON.parse(raw) : raw;
    },
    set(this: { setDataValue(key: string, value: unknown): void }, value: unknown) {
      this.setDataValue(name, value === null && allowNull ? null : JSON.stringify(value ?? fallback));
    },
  };
}
