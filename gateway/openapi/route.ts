import express, { Router } from 'express';
import { createRequire } from 'node:module';
import path from 'node:path';
import { MethodNotAllowedError } from '../../shared/errors.js';
import type { GatewayDeps } from '../deps.js';
import type { Endpoint } from '../api/endpoint.js';
import { buildOpenApiDocument } from './openapi-document.js';

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Workspace CRM API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/start.js"></script>
</body>
</html>`;

const START_SCRIPT = `window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#reference', deepLinking: true, persistAuthorization: false });`;

/**
 * GET /v1/openapi.json (public, generated once from the endpoint declarations) and a
 * reference page at /docs rendered by Swagger UI from assets served locally.
 */
export function openApiRoutes({ publicUrl }: GatewayDeps, endpoints: readonly Endpoint[]): Router {
  const router = Router();
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  const csp = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

  router.get('/v1/openapi.json', (_req, res) => {
    document ??= buildOpenApiDocument(endpoints, publicUrl());
    res.set('Cache-Control', 'public, max-age=300').json(document);
  });
  // Public, like the GET: another method is a 405 here, not the API's 401 for a missing token (nor its 404).
  router.all('/v1/openapi.json', (req, res, next) => {
    res.set('Allow', 'GET, HEAD').set('Cache-Control', 'no-store');
    next(new MethodNotAllowedError(`${req.method} is not allowed on /v1/openapi.json; this path takes GET, HEAD.`));
  });
  router.get('/docs', (_req, res) => {
    res.set('Content-Security-Policy', csp).type('html').send(DOCS_PAGE);
  });
  router.get('/docs/start.js', (_req, res) => {
    res.type('application/javascript').send(START_SCRIPT);
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1h' }));
  return router;
}
