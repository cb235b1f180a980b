import type { Container } from '../container';
/** CONTRACT 4 collections: any signed-in user reads them; only `manage:collections` changes them. */
export declare function collectionsRoutes(container: Container): import("express-serve-static-core").Router;
