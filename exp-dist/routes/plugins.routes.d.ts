import type { Container } from '../container';
/** CONTRACT 4 plugins registry, behind `manage:plugins`. Secrets are masked in every answer. */
export declare function pluginsRoutes(container: Container): import("express-serve-static-core").Router;
