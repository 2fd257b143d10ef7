import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyring } from '../src/domain/sealing.ts';
import { InstanceHeartbeat } from '../src/services/instance-heartbeat.ts';
import { freshDatabase } from './support/app.ts';
import { eventually } from './support/receiver.ts';

/**
 * A process's heartbeat (issue 31): the row that tells `zarpay rotate-data-key` which data keys
 * a running process holds. Written at start, refreshed while it runs, gone when it stops; rows
 * of processes long silent are swept. The rotation's use of it: test/data-key-rollout.test.ts.
 */
let db: Awaited<ReturnType<typeof freshDatabase>>;
const keyring = createKeyring('a service secret for the heartbeat test', [{ kid: 'k7', key: Buffer.alloc(32, 7) }]);

beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.handle.close();
  await db?.drop();
});

const rowOf = async (id: string) =>
  (await sql<{ pid: number; command: string; kids: string[]; current_kid: string; last_seen: Date }>`select pid, command, kids, current_kid, last_seen from instance_heartbeats where instance_id = ${id}`.execute(db.handle.db)).rows[0];

describe('a process\'s heartbeat', () => {
  it('names the process and the kids it holds, is refreshed while it runs, and leaves with it', async () => {
    const beat = new InstanceHeartbeat(db.handle.db, keyring, 50);
    await beat.start('zarpay worker', () => {});
    const first = await rowOf(beat.id);
    expect(first).toMatchObject({ pid: process.pid, command: 'zarpay worker', current_kid: 'k7', kids: expect.arrayContaining(['k7']) });
    expect(first!.kids.some((k) => k.startsWith('ss-'))).toBe(true); // the key derived from SERVICE_SECRET opens too
    await eventually(async () => ((await rowOf(beat.id))!.last_seen.getTime() > first!.last_seen.getTime() ? true : null));
    await beat.stop();
    expect(await rowOf(beat.id)).toBeUndefined();
  });

  it('sweeps, when a process starts, the rows of processes silent for over a minute', async () => {
    const gone = randomUUID();
    const quiet = randomUUID();
    await sql`insert into instance_heartbeats (instance_id, host, pid, command, kids, current_kid, last_seen)
              values (${gone}, 'elsewhere', 1, 'the service', ${['k1']}, 'k1', now() - interval '61 seconds'),
                     (${quiet}, 'elsewhere', 2, 'the service', ${['k1']}, 'k1', now() - interval '50 seconds')`.execute(db.handle.db);
    const beat = new InstanceHeartbeat(db.handle.db, keyring, 60_000);
    await beat.start('the service', () => {});
    expect(await rowOf(gone)).toBeUndefined();
    expect(await rowOf(quiet)).toBeDefined();
    await beat.stop();
  });
});
