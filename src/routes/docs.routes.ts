import { Router } from 'express';
import type { ApiDocs } from '../http/api-router';

/** The viewer's router, built at its first request: swagger-ui is loaded only by someone who opens it. */
function lazyViewer(): Router {
  let viewer: Router | undefined;
  const router = Router();
  router.use((req, res, next) => {
    if (!viewer) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const swaggerUi = require('swagger-ui-express') as typeof import('swagger-ui-express');
      viewer = Router();
      viewer.use(swaggerUi.serve);
      viewer.get('/', swaggerUi.setup(undefined, { swaggerOptions: { url: '/api/openapi.json' } }));
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
