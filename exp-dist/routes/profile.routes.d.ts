import type { Container } from '../container';
/** SPEC 4.5 profile API. */
export declare function profileRoutes(container: Container): import("express-serve-static-core").Router;
