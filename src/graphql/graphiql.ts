import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { GraphiQLOptions } from 'graphql-yoga';

/**
 * GraphiQL at `GET /graphql` outside `prd`, entirely from the installed package
 * `@graphql-yoga/render-graphiql` (GraphiQL, React, Monaco and their workers, bundled when it was
 * published): nothing is fetched from a CDN, so it works on a machine without internet. The page
 * is small; the bundle and the editor's workers are separate files under a versioned path,
 * cached by the browser for good and sent gzipped.
 */

const require = createRequire(import.meta.url);
const VERSION = (require('@graphql-yoga/render-graphiql/package.json') as { version: string }).version;
export const GRAPHIQL_ASSETS = `/graphql/assets/${VERSION}/`;

/** The query a new GraphiQL opens with: what a merchant's dashboard starts from. */
export const DEFAULT_QUERY = `# zarpay's GraphQL API.
# 1. Paste your secret API key (sec1-ENV-...) as the value
#    of X-API-Key (Headers, below). The operator sends
#    "Authorization": "Bearer <OPERATOR_TOKEN>" instead.
# 2. Run the query: Ctrl-Enter, or the play button.
# The Docs pane (book icon) describes every field.
#
# Live events: in a new tab, run
#   subscription {
#     payoutEvents { position type payout { id status } }
#   }
# and create a payout. To resume after a break, pass the
# last position: payoutEvents(after: "...").

query Dashboard {
  viewer { id name }
  balance {
    availableCents
    reservedCents
    balanceCents
    currency
  }
  payouts(first: 5) {
    totalCount
    edges {
      node { id status amountCents feeCents createdAt }
    }
  }
}
`;

/** Yoga's GraphiQL options: the default query and an `X-API-Key` template, nothing kept in storage. */
export function graphiqlOptions(): GraphiQLOptions & { subscriptionsEndpoint: string } {
  // Empty until a key is pasted: sent empty, it is no key, so the schema (and the Docs pane) load
  // on the first screen. A placeholder would be sent as a bad key (401), and one with a character
  // outside ISO-8859-1 (an ellipsis) made the browser's fetch throw before anything was sent.
  const headers = JSON.stringify({ 'X-API-Key': '' }, null, 2);
  return {
    title: 'zarpay GraphiQL',
    defaultQuery: DEFAULT_QUERY,
    headers,
    defaultHeaders: headers,
    // A secret key is never written to the browser's storage.
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: 'headers',
    // Subscriptions over the graphql-sse protocol, at the stream endpoint (made absolute in the page).
    subscriptionsProtocol: 'GRAPHQL_SSE',
    subscriptionsEndpoint: '/graphql/stream',
  };
}

/** The page's Content-Security-Policy: its own scripts, styles and workers only. */
export const GRAPHIQL_CSP =
  "default-src 'none'; script-src 'self'; worker-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Yoga's `renderGraphiQL`: the page, with the options as data the start-up script reads. */
export function renderGraphiQLPage(options: GraphiQLOptions): string {
  // As JSON inside a script element: `<` escaped so that no value can close the element.
  const data = JSON.stringify(options).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>zarpay GraphiQL</title>
  <link rel="icon" href="${GRAPHIQL_ASSETS}favicon.ico">
  <link rel="stylesheet" href="${GRAPHIQL_ASSETS}graphiql.css">
  <script type="application/json" id="graphiql-options">${data}</script>
</head>
<body id="body" class="no-focus-outline">
  <noscript>GraphiQL needs JavaScript.</noscript>
  <div id="root"></div>
  <script src="${GRAPHIQL_ASSETS}monaco-environment.js"></script>
  <script src="${GRAPHIQL_ASSETS}graphiql.js"></script>
  <script src="${GRAPHIQL_ASSETS}start.js"></script>
</body>
</html>
`;
}

/** Tells Monaco where its workers are: beside this script, not in blobs (which the CSP forbids). */
const MONACO_ENVIRONMENT = `(() => {
  const base = document.currentScript.src;
  const files = { json: 'json.worker.js', graphql: 'graphql.worker.js' };
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: (_moduleId, label) => new URL(files[label] || 'editor.worker.js', base).href,
  };
})();
`;

/**
 * Renders GraphiQL with the page's options; the stream endpoint is resolved against the page's
 * address. Every visit opens on a query: the address's own (`?query=`, which GraphiQL keeps up to
 * date while one types), else the guided one. Without one, a return visit met the tabs the last
 * visit stored with the query GraphiQL reads from storage, which it never wrote, and put an empty
 * "<untitled>" tab in front of them (Run: "Syntax Error: Unexpected <EOF>"). With it, a stored tab
 * holding that very query is brought to the front, or a new one opened beside the stored ones.
 */
const START = `(() => {
  const options = JSON.parse(document.getElementById('graphiql-options').textContent);
  options.query = new URL(location.href).searchParams.get('query') || options.defaultQuery;
  if (options.subscriptionsEndpoint) options.subscriptionsEndpoint = new URL(options.subscriptionsEndpoint, location.href).href;
  YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), options);
})();
`;

interface Asset {
  type: string;
  body: Buffer;
  gzipped?: Buffer;
}

/** The files of the page, read from the package on first use (it is 9 MB of JavaScript). */
async function loadAssets(): Promise<Map<string, Asset>> {
  const bundle = await import('@graphql-yoga/render-graphiql/graphiql');
  const js = 'text/javascript; charset=utf-8';
  const text = (type: string, content: string): Asset => ({ type, body: Buffer.from(content) });
  return new Map([
    ['graphiql.js', text(js, bundle.js)],
    ['graphiql.css', text('text/css; charset=utf-8', bundle.css)],
    ['editor.worker.js', text(js, bundle.editorWorkerService)],
    ['json.worker.js', text(js, bundle.jsonWorker)],
    ['graphql.worker.js', text(js, bundle.graphqlWorker)],
    ['monaco-environment.js', text(js, MONACO_ENVIRONMENT)],
    ['start.js', text(js, START)],
    ['favicon.ico', { type: 'image/x-icon', body: Buffer.from(bundle.favicon.slice(bundle.favicon.indexOf(',') + 1), 'base64') }],
  ]);
}

/** `GET /graphql/assets/{version}/{file}`: GraphiQL's files, immutable under their version. */
export function graphiqlAssetRoutes(app: FastifyInstance): void {
  let assets: Promise<Map<string, Asset>> | undefined;
  app.get<{ Params: { name: string } }>(`${GRAPHIQL_ASSETS}:name`, async (req, reply) => {
    assets ??= loadAssets();
    const asset = (await assets).get(req.params.name);
    if (!asset) return reply.callNotFound();
    reply.header('Cache-Control', 'public, max-age=31536000, immutable').header('Vary', 'Accept-Encoding').type(asset.type);
    if (!/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return asset.body;
    asset.gzipped ??= gzipSync(asset.body);
    reply.header('Content-Encoding', 'gzip');
    return asset.gzipped;
  });
}
