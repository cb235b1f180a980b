import type { Container } from '../container';
/** CONTRACT 4 password reset: request a link, show the form, set the new password. Mounted at /auth. */
export declare function passwordResetRoutes(container: Container): import("express-serve-static-core").Router;
