import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { ApiDocs } from '../http/api-router';

/** The OpenAPI document, generated from the schemas the routes validate with, and a viewer for it. */
export function docsRoutes(docs: ApiDocs): Router {
  const router = Router();
  router.get('/api/openapi.json', (_req, res) => {
    res.json(docs.toJSON());
  });
  router.use('/api/docs', swaggerUi.serve);
  router.get('/api/docs', swaggerUi.setup(undefined, { swaggerOptions: { url: '/api/openapi.json' } }));
  return router;
}
