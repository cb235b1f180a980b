import { Router } from 'express';
import type { ApiDocs } from '../http/api-router';
/** The OpenAPI document, generated from the schemas the routes validate with, and a viewer for it. */
export declare function docsRoutes(docs: ApiDocs): Router;
