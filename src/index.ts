/** Package entry: build the app programmatically and define user profiles with types. */
export { createApp } from './app';
export type { AppDependencies } from './container';
export { loadConfig } from './config/config';
export type { Config } from './config/config';
export { defineUserProfile } from './profiles/profile-definition';
export type { AuthConfig, ProfileField, ProfileFieldType, UserProfileDefinition } from './profiles/profile-types';
