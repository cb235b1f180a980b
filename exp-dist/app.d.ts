import { type Express } from 'express';
import { type AppDependencies } from './container';
/** Builds the Express app from opened connections; never listens (server.ts does). */
export declare function createApp(deps: AppDependencies): Express;
