import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export const CONTENT_STATUSES = ['draft', 'review', 'published'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

/** A named group of content items (exists to make the permission matrix real, CONTRACT 4). */
export class Collection extends Model<InferAttributes<Collection>, InferCreationAttributes<Collection>> {
  declare id: string;
  declare name: string;
  declare description: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** A content item: draft, review or published, by an author (null once the author is deleted). */
export class Content extends Model<InferAttributes<Content>, InferCreationAttributes<Content>> {
  declare id: string;
  declare title: string;
  declare body: string | null;
  declare status: CreationOptional<ContentStatus>;
  declare collectionId: string | null;
  declare authorId: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export interface ContentModels {
  Collection: typeof Collection;
  Content: typeof Content;
}

/** Binds fresh Collection and Content subclasses to the Sequelize instance (see defineModels). */
export function defineContentModels(sequelize: Sequelize): ContentModels {
  const id = { type: DataTypes.STRING(36), primaryKey: true, allowNull: false };
  const timestamps = { createdAt: { type: DataTypes.DATE, allowNull: false }, updatedAt: { type: DataTypes.DATE, allowNull: false } };
  const CollectionM = class extends Collection {};
  const ContentM = class extends Content {};
  CollectionM.init(
    {
      id,
      name: { type: DataTypes.STRING(100), allowNull: false, unique: true },
      description: { type: DataTypes.TEXT, allowNull: true },
      ...timestamps,
    },
    { sequelize, tableName: 'collections', underscored: true },
  );
  ContentM.init(
    {
      id,
      title: { type: DataTypes.STRING(255), allowNull: false },
      body: { type: DataTypes.TEXT, allowNull: true },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'draft' },
      collectionId: { type: DataTypes.STRING(36), allowNull: true },
      authorId: { type: DataTypes.STRING(36), allowNull: true },
      ...timestamps,
      // Lists ordered newest first need sub-second order (see migration 20261123000100).
      createdAt: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'content', underscored: true },
  );
  return { Collection: CollectionM, Content: ContentM };
}
