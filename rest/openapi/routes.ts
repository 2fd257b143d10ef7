import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ServiceEnv } from '../../src/config.ts';
import { openApiDocument } from './document.ts';

const require = createRequire(import.meta.url);
const SWAGGER_UI = dirname(require.resolve('swagger-ui-dist/package.json'));

/** Swagger UI's files, served from the installed package: no CDN, nothing fetched at run time. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'favicon-32x32.png': { file: 'favicon-32x32.png', type: 'image/png' },
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>zarpay API reference</title>
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  tryItOutEnabled: false,
  validatorUrl: null,
});`;

/** `/api/v1/openapi.json` and the API reference page at `/docs`; neither needs a key. */
export async function docsRoutes(app: FastifyInstance, opts: { publicBaseUrl: string; serviceEnv: ServiceEnv }) {
  const document = JSON.stringify(openApiDocument(opts.publicBaseUrl, opts.serviceEnv));
  const cache = new Map<string, Buffer>();
  const csp = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

  app.get('/api/v1/openapi.json', async (_req, reply) => {
    reply.type('application/json; charset=utf-8');
    return document;
  });
  app.get('/docs', async (_req, reply) => {
    reply.header('Content-Security-Policy', csp).type('text/html; charset=utf-8');
    return PAGE;
  });
  app.get('/docs/init.js', async (_req, reply) => {
    reply.type('text/javascript; charset=utf-8');
    return INIT;
  });
  app.get<{ Params: { name: string } }>('/docs/assets/:name', async (req, reply) => {
    const asset = ASSETS[req.params.name];
    if (!asset) return reply.callNotFound();
    let body = cache.get(asset.file);
    if (!body) {
      body = readFileSync(join(SWAGGER_UI, asset.file));
      cache.set(asset.file, body);
    }
    reply.header('Cache-Control', 'public, max-age=86400').type(asset.type);
    return body;
  });
}
