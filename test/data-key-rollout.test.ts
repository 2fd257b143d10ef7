import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, usingPostgres } from './support/app.ts';
import { callService, operatorOn, type ServiceProcess, SERVICE_SECRET, spawnService } from './support/process.ts';
import { zarpay } from './support/processes.ts';

/**
 * A data-key rotation cannot strand data (issue 31): every running service process reports the
 * kids it can open (a heartbeat row in `instance_heartbeats`), and `zarpay rotate-data-key`
 * refuses, naming them, while one that reported lately lacks the new key; `--force` overrides.
 * Real service processes on one PostgreSQL database, as in production.
 */
const key = () => randomBytes(32).toString('base64');
const [k1, k2, k3] = [`k1:${key()}`, `k2:${key()}`, `k3:${key()}`];

describe.skipIf(!usingPostgres)('rotating the data key while instances run (needs PostgreSQL: set DATABASE_URL)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  const running = new Set<ServiceProcess>();
  const service = async (dataKey: string) => {
    const s = await spawnService({ DATABASE_URL: db.url!, DATA_KEY: dataKey });
    running.add(s);
    return s;
  };
  const stop = async (s: ServiceProcess) => {
    await s.stop();
    running.delete(s);
  };
  const cli = (args: string[], dataKey: string) =>
    zarpay(args, { SERVICE_ENV: 'tst', LOG_LEVEL: 'silent', DATABASE_URL: db.url!, SERVICE_SECRET, DATA_KEY: dataKey, DATA_DIR: mkdtempSync(join(tmpdir(), 'zarpay-rotate-')) });
  const heartbeats = async () => (await sql<{ pid: number; kids: string[] }>`select pid, kids from instance_heartbeats order by started_at`.execute(db.handle.db)).rows;
  const pidOf = (s: ServiceProcess) => s.child.pid!;

  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    for (const s of running) await s.stop();
    await db?.handle.close();
    await db?.drop();
  });

  it('refuses while a live instance lacks the new key, naming it; proceeds once both hold it; --force overrides', async () => {
    const a = await service(k1);
    const b = await service(k1);
    // Something sealed under k1: a payout's bank details.
    const made = await operatorOn(a, 'mutation { createMerchant(input: { name: "Rollout Shop" }) { merchant { id } fullKey } }');
    await operatorOn(a, 'mutation($m: UUID!) { creditBalance(merchantId: $m, amountCents: 100000) { balance { balanceCents } } }', { m: made.createMerchant.merchant.id });
    const payout = await callService(a, '/api/v1/payouts', {
      method: 'POST',
      key: made.createMerchant.fullKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        amount_cents: 1_000,
        currency: 'ZAR',
        payout_method: 'eft',
        payment_details: { account_number: '62012345678', branch_code: '250655', account_holder: 'T N', bank_name: 'FNB' },
      }),
    });
    expect(payout.status).toBe(201);
    expect((await heartbeats()).map((h) => h.pid).sort()).toEqual([pidOf(a), pidOf(b)].sort());

    // Step 1 done for one instance only: a is restarted with k2 first, b still has k1 alone.
    await stop(a);
    expect((await heartbeats()).map((h) => h.pid)).toEqual([pidOf(b)]); // a clean stop takes its row away
    const a2 = await service(`${k2},${k1}`);
    const dry = await cli(['rotate-data-key', '--dry-run'], `${k2},${k1}`);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json.instances).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pid: pidOf(b), kids: expect.arrayContaining(['k1']), holds_current_kid: false, command: 'the service' }),
        expect.objectContaining({ pid: pidOf(a2), kids: expect.arrayContaining(['k2', 'k1']), holds_current_kid: true }),
      ]),
    );

    const refused = await cli(['rotate-data-key'], `${k2},${k1}`);
    expect(refused.code).toBe(1);
    expect(refused.json?.code, refused.stderr).toBe('CONFLICT');
    expect(refused.json.message).toMatch(/1 running instance\(s\) do not hold the new key k2/);
    expect(refused.json.message).toContain(`pid ${pidOf(b)} `);
    expect(refused.json.message).not.toContain(`pid ${pidOf(a2)} `);
    expect(refused.json.message).toMatch(/Roll the new DATA_KEY out to every instance first/);
    // Nothing was sealed again: b still reads the bank details.
    const still = await cli(['rotate-data-key', '--dry-run'], `${k2},${k1}`);
    expect(still.json.payout_details).toEqual({ k1: 1 });

    // A report that stopped long ago (a process killed a while back) neither counts nor stays.
    await sql`insert into instance_heartbeats (instance_id, host, pid, command, kids, current_kid, started_at, last_seen)
              values (${randomUUID()}, 'gone-host', 4242, 'the service', ${['k1']}, 'k1', now() - interval '1 hour', now() - interval '2 minutes')`.execute(db.handle.db);

    // The rollout finished: b restarted with both keys.
    await stop(b);
    const b2 = await service(`${k2},${k1}`);
    const rotated = await cli(['rotate-data-key'], `${k2},${k1}`);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.json).toMatchObject({ ok: true, current_kid: 'k2', resealed: { payout_details: 1 }, payout_details: { k2: 1 } });
    expect(rotated.json.instances.map((i: { pid: number }) => i.pid).sort()).toEqual([pidOf(a2), pidOf(b2)].sort());
    expect(rotated.json.forced).toBeUndefined();
    expect((await heartbeats()).map((h) => h.pid).sort()).toEqual([pidOf(a2), pidOf(b2)].sort()); // the stale row is gone

    // --force: a rotation to k3, which no running instance holds, goes ahead when told to, and says so.
    const again = await cli(['rotate-data-key'], `${k3},${k2},${k1}`);
    expect(again.json?.code, again.stderr).toBe('CONFLICT');
    expect(again.json.message).toMatch(/2 running instance\(s\) do not hold the new key k3/);
    const forced = await cli(['rotate-data-key', '--force'], `${k3},${k2},${k1}`);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.json).toMatchObject({ ok: true, current_kid: 'k3', forced: true, payout_details: { k3: 1 } });
    expect(forced.stderr).toMatch(/--force: sealed under k3 although/);
    const audit = await sql<{ detail: any }>`select detail from audit_log where action = 'data_key.rotate' order by id desc limit 1`.execute(db.handle.db);
    expect(audit.rows[0]!.detail.forced_past).toHaveLength(2);
  }, 240_000);
});
