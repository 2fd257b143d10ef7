import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';

/** What `GET /` links to: the places a newcomer looks for first. */
function links(config: Config) {
  return {
    dashboard: '/dashboard',
    api: '/api/v1',
    openapi: '/api/v1/openapi.json',
    docs: '/docs',
    graphql: '/graphql',
    health: '/healthz',
    ready: '/readyz',
    ...(config.serviceEnv !== 'prd' && { metrics: '/metrics' }),
  };
}

const LABELS: Record<string, string> = {
  dashboard: 'Merchant dashboard (sign in)',
  docs: 'API reference (OpenAPI, interactive)',
  openapi: 'OpenAPI document',
  graphql: 'GraphQL',
  health: 'Health',
  ready: 'Readiness (database)',
  metrics: 'Metrics (Prometheus)',
};

/**
 * `GET /`: a small page that says what this is and where to go, as HTML for a browser and as
 * JSON for anything else (curl, API clients), instead of a 404.
 */
export async function homeRoute(app: FastifyInstance, opts: { config: Config }) {
  const found = links(opts.config);
  app.get('/', async (req, reply) => {
    // Browsers ask for text/html by name; curl and API clients send */* or application/json.
    const wantsHtml = /\btext\/html\b/.test(req.headers.accept ?? '');
    if (!wantsHtml) return { status: 'success', data: { service: 'zarpay', env: opts.config.serviceEnv, links: found } };
    const items = Object.entries(LABELS)
      .filter(([key]) => key in found)
      .map(([key, label]) => `<li><a href="${found[key as keyof typeof found]}">${label}</a> <code>${found[key as keyof typeof found]}</code></li>`)
      .join('\n');
    reply
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
      .type('text/html; charset=utf-8');
    return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>zarpay</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#111827}code{color:#4b5563}</style></head>
<body>
<h1>zarpay</h1>
<p>Merchant payments and EFT payouts in South African rand (${opts.config.serviceEnv}). Merchants call <code>/api/v1</code> with their secret key in <code>X-API-Key</code>.</p>
<ul>
${items}
</ul>
</body>
</html>`;
  });
}
