import type { Container } from '../container';
/** CONTRACT 4 users API, behind `manage:users`. */
export declare function usersRoutes(container: Container): import("express-serve-static-core").Router;
