import type { Container } from '../container';
/**
 * CONTRACT 4 content. The guards here are the coarse, per-route half of the matrix; which item a user
 * may read, edit or delete is decided by contentPolicy in the service.
 */
export declare function contentRoutes(container: Container): import("express-serve-static-core").Router;
