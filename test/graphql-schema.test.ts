import { bootOn } from '../src/boot.ts';
import { readFileSync } from 'node:fs';
import { auditServer } from 'graphql-http';
import { createClient } from 'graphql-sse';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printedSchema, SCHEMA_FILE } from '../src/graphql/print-schema.ts';
import { createGraphQL } from '../src/graphql/yoga.ts';
import { createApp } from '../src/server.ts';
import { borrowed, startApp, type TestApp } from './support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t?.close());

describe('the published schema', () => {
  it('schema.graphql is what `npm run schema` prints', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    expect(committed === printedSchema(), 'schema.graphql is stale: run `npm run schema` and commit it').toBe(true);
  });
});

describe('GraphQL over HTTP conformance (graphql-http audits)', () => {
  it('passes every audit with no error, warning or notice', async () => {
    const results = await auditServer({ url: t.url + '/graphql' });
    const problems = results.filter((r) => r.status !== 'ok').map((r) => `${r.status} ${r.id} ${r.name}: ${'reason' in r ? r.reason : ''}`);
    expect(problems.filter((p) => p.startsWith('error'))).toEqual([]);
    // docs/graphql.md lists the warnings and notices; today there are none.
    expect(problems).toEqual([]);
    expect(results.length).toBeGreaterThan(50);
  });
});

describe('introspection', () => {
  const introspect = '{ __schema { queryType { name } } }';
  const call = (yoga: ReturnType<typeof createGraphQL>) =>
    yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: introspect }),
    });

  it('is open outside prd, where GraphiQL runs, and its full introspection query fits the limits', async () => {
    const res = await call(createGraphQL(t.app.services, t.config));
    expect(res.status).toBe(200);
    expect((await res.json()).data.__schema.queryType.name).toBe('Query');
    const full = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true });
    const graphiql = await fetch(t.url + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: full }) });
    const body = (await graphiql.json()) as any;
    expect(body.errors).toBeUndefined();
    expect(body.data.__schema.types.map((type: { name: string }) => type.name)).toContain('PayoutHistoryEvent');
  });

  it('is refused in prd, before execution, with VALIDATION_FAILED', async () => {
    const config = { ...t.config, serviceEnv: 'prd' as const };
    const res = await call(createGraphQL(t.app.services, config));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.data).toBeUndefined();
    expect(body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(body.errors[0].message).toMatch(/introspection/i);
  });

  it('serves no GraphiQL in prd', async () => {
    const config = { ...t.config, serviceEnv: 'prd' as const };
    const res = await createGraphQL(t.app.services, config).fetch('http://localhost/graphql', { headers: { accept: 'text/html' } });
    expect(await res.text()).not.toMatch(/graphiql/i);
  });

  it('serves GraphiQL on GET /graphql outside prd, from the service itself: no CDN', async () => {
    const res = await fetch(t.url + '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/graphiql/i);
    // Every script, style and icon is the service's own (test/graphiql.browser.test.ts runs it offline).
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(5);
    for (const source of sources) {
      expect(source).toMatch(/^\/graphql\/assets\//);
      const asset = await fetch(t.url + source, { headers: { 'accept-encoding': 'gzip' } });
      expect(asset.status, source).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
    }
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).toContain('X-API-Key');
    expect(html).toContain('query Dashboard');
  });

  it('has no GraphiQL assets in prd', async () => {
    const page = await fetch(t.url + '/graphql', { headers: { accept: 'text/html' } });
    const source = [...(await page.text()).matchAll(/src="([^"]+)"/g)][0]![1]!;
    // The prd settings applied directly: config loading would ask for PostgreSQL and real secrets.
    // prd needs a real payment provider configured; this test never reaches it.
    const yoco = { secretKey: 'sk_test_unused', webhookSecret: 'whsec_unused', apiUrl: 'http://127.0.0.1:9' };
    const prd = createApp((await bootOn({ ...t.config, serviceEnv: 'prd', trustProxy: true, yoco }, borrowed(t.database))).services);
    try {
      const res = await prd.app.inject({ url: source, headers: { 'x-forwarded-proto': 'https' } });
      expect(res.statusCode).toBe(404);
    } finally {
      await prd.app.close();
    }
  });
});

describe('/graphql/stream reads its bodies too', () => {
  it.each([true, false])('graphql-sse, singleConnection %s', async (singleConnection) => {
    const client = createClient({ url: t.url + '/graphql/stream', singleConnection, headers: { authorization: `Bearer ${t.config.operatorToken}` } });
    const results: unknown[] = [];
    for await (const result of client.iterate({ query: '{ merchants { id } }' })) results.push(result);
    client.dispose();
    expect(results).toEqual([{ data: { merchants: [] } }]);
  });
});
