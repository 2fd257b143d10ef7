/**
 * The PostGraphile reference: PostGraphile 5 (Amber preset: Grafast plans each document once and
 * reads each request's data in one SQL statement of its own making) served by grafserv on
 * node:http, over the seeded database as it is, in production mode (NODE_ENV=production, no
 * GraphiQL, no schema watch, no plan explain). A peer that answers the same reads with no
 * application code at all; its field names are its own (bench/scenarios/graphql.ts holds the
 * documents it is sent). No authentication: it reads any merchant's rows.
 *
 * It sees only the four tables the reads need, and not their columns that a client of a
 * benchmark has no business with (payment details, request hashes, customer contacts); every
 * other table, `api_keys` and its `secret_hash` among them, is left out of its schema.
 *
 * Run as its own process: `node --import tsx bench/references/postgraphile.ts` with DATABASE_URL
 * and PORT.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { jsonPgSmartTags } from 'postgraphile/utils';
import { POOL_SIZE } from './statements-pool.ts';

/** The tables it may serve, each without the columns named. */
const SERVED: Record<string, string[]> = {
  payouts: ['payment_details', 'request_hash'],
  payments: ['customer_email', 'customer_phone', 'params_hash'],
  payment_attempts: [],
  balances: [],
};

const started = performance.now();
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
const { rows } = await pool.query<{ name: string }>(`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p', 'f')`);

// `-*` removes a table or a column from every part of the schema (fields, types, mutations);
// the served tables are read-only: this reference answers reads.
const omit = { behavior: ['-*'] };
const readOnly = { behavior: ['-insert', '-update', '-delete'] };
const smartTags = jsonPgSmartTags({
  version: 1,
  config: {
    class: Object.fromEntries(
      rows.map(({ name }) => [
        name,
        SERVED[name]
          ? { tags: readOnly, attribute: Object.fromEntries(SERVED[name]!.map((column) => [column, { tags: omit }])) }
          : { tags: omit },
      ]),
    ),
  },
});

const preset: GraphileConfig.Preset = {
  extends: [PostGraphileAmberPreset],
  plugins: [smartTags],
  pgServices: [makePgService({ pool, schemas: ['public'] })],
  grafserv: { graphqlPath: '/graphql', graphiql: false, graphiqlOnGraphQLGET: false, watch: false, websockets: false },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
// Build the schema now, not on the first request, and say how long start-up took.
await pgl.getSchema();
const handler = serv.createHandler();
console.log(`postgraphile schema ready in ${Math.round(performance.now() - started)} ms`);

const server = createServer((req, res) => {
  if (req.url === '/healthz') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    return;
  }
  handler(req, res);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void Promise.resolve(pgl.release()).finally(() => pool.end().finally(() => process.exit(0)));
});
