import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

/** What a running process says of itself (services/instance-heartbeat.ts). */
export interface Heartbeat {
  id: string;
  host: string;
  pid: number;
  command: string;
  kids: string[];
  currentKid: string;
}

/** A report as read back, with its age by the database's clock (every process's reports are timed by it). */
export interface ReportedInstance extends Heartbeat {
  startedAt: Date;
  lastSeen: Date;
  secondsSinceSeen: number;
}

interface Row {
  instance_id: string;
  host: string;
  pid: number;
  command: string;
  kids: string[];
  current_kid: string;
  started_at: Date;
  last_seen: Date;
  seconds: number | string;
}

const reportStatement = statement<{ id: string; host: string; pid: number; command: string; kids: string[]; currentKid: string }, never>(
  'report this process and its data keys',
  `insert into instance_heartbeats (instance_id, host, pid, command, kids, current_kid)
   values (:id::uuid, :host::text, :pid::int, :command::text, :kids::text[], :currentKid::text)
   on conflict (instance_id) do update set last_seen = now(), kids = excluded.kids, current_kid = excluded.current_kid`,
);
const forgetStatement = statement<{ id: string }, never>('forget a stopped process', `delete from instance_heartbeats where instance_id = :id::uuid`);
const sweepStatement = statement<{ staleMs: number }, never>(
  'forget processes that stopped reporting',
  `delete from instance_heartbeats where last_seen < now() - :staleMs::bigint * interval '1 millisecond'`,
);
const liveStatement = statement<{ staleMs: number }, Row>(
  'processes that reported lately',
  `select instance_id, host, pid, command, kids, current_kid, started_at, last_seen,
          extract(epoch from now() - last_seen)::float8 as seconds
     from instance_heartbeats where last_seen >= now() - :staleMs::bigint * interval '1 millisecond'
    order by started_at, instance_id`,
);

/** Records that the process is running now, with the kids it holds (a first report, or a later one). */
export async function reportInstance(db: DbOrTx, r: Heartbeat): Promise<void> {
  await reportStatement.run(db, { id: r.id, host: r.host, pid: r.pid, command: r.command, kids: r.kids, currentKid: r.currentKid });
}

/** A process that stops cleanly takes its report with it. */
export async function forgetInstance(db: DbOrTx, id: string): Promise<void> {
  await forgetStatement.run(db, { id });
}

/** Deletes the reports of processes silent for longer than `staleMs` (stopped without a word: killed, lost). */
export async function forgetStaleInstances(db: DbOrTx, staleMs: number): Promise<void> {
  await sweepStatement.run(db, { staleMs });
}

/** The processes that reported within `staleMs`, oldest first. */
export async function liveInstances(db: DbOrTx, staleMs: number): Promise<ReportedInstance[]> {
  const rows = await liveStatement.run(db, { staleMs });
  return rows.map((r) => ({
    id: r.instance_id,
    host: r.host,
    pid: r.pid,
    command: r.command,
    kids: r.kids,
    currentKid: r.current_kid,
    startedAt: r.started_at,
    lastSeen: r.last_seen,
    secondsSinceSeen: Math.max(0, Number(r.seconds)),
  }));
}

/** The statements a process sends by itself to report (background, not any request's). */
export const isHeartbeatStatement = (sql: string): boolean => sql === reportStatement.sql || sql === sweepStatement.sql;
