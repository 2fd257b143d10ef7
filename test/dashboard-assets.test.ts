import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_DIR } from '../src/dashboard/routes.ts';
import { startApp, type TestApp } from './support/app.ts';

/**
 * The dashboard's files go out compressed (Lighthouse's `uses-text-compression`): brotli to a
 * browser that takes it, else gzip, else as they are, from the copies `npm run build:dashboard`
 * made beside each file, with `Vary: Accept-Encoding` so a cache keeps them apart. Whatever comes,
 * decoded it is the built file, byte for byte.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

/** A GET over plain HTTP (fetch would decode the body itself): the raw bytes, and the headers. */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The script and the style sheet the dashboard's page loads. */
async function assets(): Promise<string[]> {
  const page = (await get('/dashboard/login')).body.toString('utf8');
  const found = [...page.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  expect(found.some((a) => a.endsWith('.js')) && found.some((a) => a.endsWith('.css')), page).toBe(true);
  return found;
}

const built = (path: string) => readFileSync(join(DASHBOARD_DIR, 'assets', path.slice('/dashboard/assets/'.length)));

describe('the dashboard files, compressed', () => {
  it('brotli to Accept-Encoding: br, gzip to gzip, as they are without it; each decodes to the built file', async () => {
    for (const path of await assets()) {
      const original = built(path);
      const br = await get(path, { 'accept-encoding': 'br' });
      expect(br.status, path).toBe(200);
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(brotliDecompressSync(br.body).equals(original), `${path} br decodes to the file`).toBe(true);
      expect(br.body.length, `${path} br is smaller`).toBeLessThan(original.length / 2);

      const gz = await get(path, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding'], path).toBe('gzip');
      expect(gunzipSync(gz.body).equals(original), `${path} gzip decodes to the file`).toBe(true);

      // What a browser sends: brotli wins.
      expect((await get(path, { 'accept-encoding': 'gzip, deflate, br, zstd' })).headers['content-encoding'], path).toBe('br');

      const plain = await get(path);
      expect(plain.status, path).toBe(200);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.body.equals(original), `${path} as it is`).toBe(true);
      // Nor to a client that takes none of them.
      expect((await get(path, { 'accept-encoding': 'identity' })).headers['content-encoding'], path).toBeUndefined();

      for (const r of [br, gz, plain]) {
        expect(String(r.headers.vary).toLowerCase(), path).toContain('accept-encoding');
        expect(r.headers['content-type'], path).toMatch(path.endsWith('.js') ? /javascript; charset=utf-8/i : /^text\/css; charset=utf-8/i);
        expect(r.headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
      }
    }
  });

  it('serves the compressed copies only as encodings of their file, and nothing outside the assets', async () => {
    const [path] = await assets();
    for (const other of [`${path}.br`, `${path}.gz`, '/dashboard/assets/missing.js', '/dashboard/assets/../index.html', '/dashboard/assets/%2e%2e/index.html']) {
      expect((await get(other, { 'accept-encoding': 'br' })).status, other).toBe(404);
    }
  });
});
