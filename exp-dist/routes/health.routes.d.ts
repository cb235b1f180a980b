import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { KeyValueStore } from '../store';
/** Liveness (the process answers) and readiness (its database and key-value store answer). */
export declare function healthRoutes({ sequelize, store }: {
    sequelize: Sequelize;
    store: KeyValueStore;
}): Router;
