import type { Container } from '../container';
/** CONTRACT 4 security settings, behind `manage:settings`. Environment values win over stored ones. */
export declare function settingsRoutes(container: Container): import("express-serve-static-core").Router;
