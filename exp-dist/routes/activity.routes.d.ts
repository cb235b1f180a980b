import type { Container } from '../container';
/** CONTRACT 4 activity log, behind `view:activity-logs`. */
export declare function activityRoutes(container: Container): import("express-serve-static-core").Router;
