import { Router } from 'express';
import type { ApiDocs } from '../http/api-router';

/**
 * The viewer's router, built at its first request: swagger-ui is loaded only by someone who opens it. The
 * page is ours (views/api-docs.ejs, its start-up script public/api-docs.js): swagger-ui-express's own page
 * carries inline style, which the Content-Security-Policy refuses; only its files are served from here.
 */
function lazyViewer(): Router {
  let viewer: Router | undefined;
  const router = Router();
  router.use((req, res, next) => {
    if (!viewer) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const swaggerUi = require('swagger-ui-express') as typeof import('swagger-ui-express');
      viewer = Router();
      // Before the files: swagger-ui-dist has an index.html of its own (with inline script) at the same path.
      viewer.get('/', (_req, page) => page.render('api-docs'));
      viewer.use(swaggerUi.serve);
    }
    viewer(req, res, next);
  });
  return router;
}

/** The OpenAPI document, generated from the schemas the routes validate with, and a viewer for it. */
export function docsRoutes(docs: ApiDocs): Router {
  const router = Router();
  router.get('/api/openapi.json', (_req, res) => {
    res.json(docs.toJSON());
  });
  router.use('/api/docs', lazyViewer());
  return router;
}
