import type pg from 'pg';
import type { Outcome } from './http.ts';
import type { Instance, Window } from './instances.ts';
import type { Receipt } from './receiver.ts';

/** One check of the end of the run: passed or not, with the figures that say so. */
export interface Check {
  name: string;
  ok: boolean;
  lines: string[];
}

/** The RSS every instance must stay below, all run long (the brief of a 256 MiB container). */
export const RSS_LIMIT_MIB = 256;

const overlaps = (o: Outcome, w: Window) => o.at <= w.to && o.at + o.ms >= w.from;
const count = <K>(map: Map<K, number>, key: K, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);
const listed = (map: Map<string, number>) => [...map].map(([k, n]) => `${n} × ${k}`).join(', ');

/**
 * No 5xx other than 503 from an instance while its database was cut, and no request without an
 * answer other than those to an instance while it was killed and restarting (refused, or reset
 * in flight). A timeout is never expected: an instance that is up must answer.
 */
export function httpCheck(outcomes: Outcome[], instances: Pick<Instance, 'name' | 'killWindows' | 'cutWindows'>[]): Check {
  const byName = new Map(instances.map((i) => [i.name, i]));
  const allowed = new Map<string, number>();
  const failures: Outcome[] = [];
  for (const o of outcomes) {
    if (o.status !== 0 && o.status < 500) continue;
    const instance = byName.get(o.instance)!;
    if (o.status === 503 && instance.cutWindows.some((w) => overlaps(o, w))) count(allowed, `503 from ${o.instance} during its database cut`);
    else if (o.status === 0 && o.code !== 'timeout' && instance.killWindows.some((w) => overlaps(o, w))) count(allowed, `${o.code} from ${o.instance} during its kill -9 and restart`);
    else failures.push(o);
  }
  const kinds = new Map<string, number>();
  for (const f of failures) count(kinds, `${f.status || 'no answer'} ${f.code} from ${f.instance} (${f.side} ${f.kind})`);
  const lines = [
    `${outcomes.length} requests; ${failures.length} failed (5xx other than 503 in a cut, or no answer outside a kill)`,
    `expected: ${allowed.size ? listed(allowed) : 'none'}`,
  ];
  if (failures.length) {
    lines.push(`failures: ${listed(kinds)}`);
    lines.push(`first failures: ${failures.slice(0, 5).map((f) => `${clock(f.at)} ${f.instance} ${f.kind} → ${f.status || 'no answer'} ${f.code}`).join('; ')}`);
  }
  return { name: 'HTTP: no 5xx but 503 during the cut, no dropped request but during the kill', ok: failures.length === 0, lines };
}

/** Every instance's RSS, sampled each second (VmRSS) and by the kernel's high-water mark (VmHWM), stays below the limit. */
export function rssCheck(instances: Pick<Instance, 'name' | 'incarnations'>[]): Check {
  const lines: string[] = [];
  let ok = true;
  for (const instance of instances) {
    instance.incarnations.forEach((inc, k) => {
      const peak = Math.max(0, ...inc.rss.map((s) => s.mib));
      const over = inc.rss.filter((s) => s.mib >= RSS_LIMIT_MIB).length;
      if (peak >= RSS_LIMIT_MIB || inc.hwmMiB >= RSS_LIMIT_MIB || inc.rss.length === 0) ok = false;
      lines.push(
        `${instance.name}#${k + 1} (pid ${inc.pid}, ${inc.end ?? 'running'}): ${inc.rss.length} samples, peak VmRSS ${peak.toFixed(1)} MiB, VmHWM ${inc.hwmMiB.toFixed(1)} MiB` +
          (over ? `, ${over} samples ≥ ${RSS_LIMIT_MIB} MiB (first at ${clock(inc.rss.find((s) => s.mib >= RSS_LIMIT_MIB)!.at)})` : ''),
      );
    });
  }
  return { name: `RSS below ${RSS_LIMIT_MIB} MiB throughout, every instance`, ok, lines };
}

/** No instance exited unless the soak killed it; the killed one came back; the cut one was ready again. */
export function instancesCheck(instances: Pick<Instance, 'name' | 'unexpectedExits' | 'killWindows' | 'cutWindows' | 'logPath'>[]): Check {
  const lines: string[] = [];
  let ok = true;
  for (const i of instances) {
    for (const e of i.unexpectedExits) {
      ok = false;
      lines.push(`${i.name} ${e.how} at ${clock(e.at)} (not the soak's doing); see ${i.logPath}`);
    }
    for (const w of i.killWindows) lines.push(`${i.name}: kill -9 at ${clock(w.from)}, answering again ${((w.to - w.from) / 1000).toFixed(1)} s later`);
    for (const w of i.cutWindows) {
      const ready = (w.to - w.restoredAt) / 1000;
      // cutDatabase gives up waiting after a minute.
      if (ready >= 60) ok = false;
      lines.push(`${i.name}: database cut at ${clock(w.from)} for ${((w.restoredAt - w.from) / 1000).toFixed(1)} s, /readyz 200 ${ready.toFixed(1)} s after it came back`);
    }
  }
  return { name: 'instances: up all run but for the planned kill, ready again after the cut', ok, lines };
}

/** An event as the check needs it: its id and how many delivery rows it has. */
export interface EventRow {
  id: string;
  deliveries: number;
}

/** A delivery row with a summary of its logged attempts. */
export interface DeliveryRow {
  id: string;
  event_id: string;
  status: string;
  /** Attempts logged as succeeded. */
  successes: number;
  /** Attempts logged with an HTTP status: the receiver answered them, so it saw them. */
  answered: number;
  /** Attempts logged without one (timeout, connection error): the receiver may or may not have seen them. */
  unanswered: number;
}

/** The events and delivery rows of the run's database, for webhookVerdict. */
export async function readDeliveries(db: pg.Client): Promise<{ events: EventRow[]; deliveries: DeliveryRow[] }> {
  const events = (await db.query<EventRow>(`select e.id, (select count(*)::int from webhook_deliveries d where d.event_id = e.id) as deliveries from events e`)).rows;
  const deliveries = (await db.query<DeliveryRow>(`
    select d.id, d.event_id, d.status,
           count(*) filter (where a.succeeded)::int as successes,
           count(*) filter (where a.status_code is not null)::int as answered,
           count(*) filter (where a.id is not null and a.status_code is null)::int as unanswered
      from webhook_deliveries d left join webhook_attempts a on a.delivery_id = d.id
     group by d.id`)).rows;
  return { events, deliveries };
}

/**
 * The stretches in which an attempt may have reached the receiver without its outcome being
 * written: an attempt's time limit before a kill, and from that long before a cut to the end of it.
 */
export function unrecordedWindows(instances: Pick<Instance, 'killWindows' | 'cutWindows'>[], attemptLimitMs: number): Window[] {
  return instances.flatMap((i) => [
    ...i.killWindows.map((w) => ({ from: w.from - attemptLimitMs, to: w.from })),
    ...i.cutWindows.map((w) => ({ from: w.from - attemptLimitMs, to: w.to })),
  ]);
}

export interface WebhookEvidence {
  events: EventRow[];
  deliveries: DeliveryRow[];
  receipts: Receipt[];
  /** From unrecordedWindows. */
  unrecorded: Window[];
  /** Nothing was pending any more when the soak stopped waiting. */
  drained: boolean;
}

/**
 * Webhooks, delivered exactly once per delivery id, which here means: every event has exactly one
 * delivery row (every merchant has a URL and nothing is redelivered), and each row ended
 * `succeeded` with exactly one successful attempt logged; the receiver saw every event's
 * `webhook-id`, signed with the merchant's secret; and every receipt beyond the attempts the
 * service logged is one whose outcome could not be written: sent by an instance killed (within an
 * attempt's time limit before the kill) or with its database cut, and sent again when its claim
 * expired. Such a repeat is at-least-once delivery doing its job (the POST and the write of its
 * outcome cannot be one transaction); a repeat anywhere else is an outcome lost outside the
 * planned disruptions (the database refusing the write) or two dispatchers holding one delivery.
 */
export function webhookVerdict({ events, deliveries, receipts, unrecorded, drained }: WebhookEvidence): Check {
  const byEvent = new Map<string, Receipt[]>();
  for (const r of receipts) {
    const same = byEvent.get(r.id);
    if (same) same.push(r);
    else byEvent.set(r.id, [r]);
  }
  const eventIds = new Set(events.map((e) => e.id));
  const inUnrecorded = (r: Receipt) => unrecorded.some((w) => r.at >= w.from && r.at <= w.to);

  const notOne = events.filter((e) => e.deliveries !== 1).length;
  const statuses = new Map<string, number>();
  for (const d of deliveries) count(statuses, d.status);
  const notSucceeded = deliveries.filter((d) => d.status !== 'succeeded').length;
  const successesNotOne = deliveries.filter((d) => d.successes !== 1).length;
  const attempts = new Map<string, { answered: number; unanswered: number }>();
  for (const d of deliveries) {
    const a = attempts.get(d.event_id) ?? { answered: 0, unanswered: 0 };
    attempts.set(d.event_id, { answered: a.answered + d.answered, unanswered: a.unanswered + d.unanswered });
  }
  let missing = 0;
  let repeats = 0;
  let repeatedEvents = 0;
  let unexplained = 0;
  let unseenAnswers = 0;
  const examples: string[] = [];
  for (const e of events) {
    const got = byEvent.get(e.id) ?? [];
    if (e.deliveries > 0 && got.length === 0) missing++;
    if (got.length > 1) {
      repeats += got.length - 1;
      repeatedEvents++;
    }
    const a = attempts.get(e.id) ?? { answered: 0, unanswered: 0 };
    // Every answer the service logged was given by the receiver: it must have seen that many.
    if (a.answered > got.length) unseenAnswers++;
    const notLogged = got.length - a.answered - a.unanswered;
    const explained = notLogged <= 0 || got.filter(inUnrecorded).length >= notLogged;
    if (!explained) unexplained += notLogged;
    if (got.length > 1 && examples.length < 5) {
      examples.push(`${e.id} ${got.length}× at ${got.map((r) => clock(r.at)).join(', ')}, ${a.answered + a.unanswered} attempts logged${explained ? '' : ', NOT explained'}`);
    }
  }
  const unknown = receipts.filter((r) => !eventIds.has(r.id)).length;
  const unverified = receipts.filter((r) => !r.verified).length;
  const ok = drained && notOne === 0 && notSucceeded === 0 && successesNotOne === 0 && missing === 0 && unknown === 0 && unverified === 0 && unexplained === 0 && unseenAnswers === 0;
  return {
    name: 'webhooks: every event delivered, exactly once per delivery id',
    ok,
    lines: [
      `${events.length} events, ${deliveries.length} delivery rows (${listed(statuses) || 'none'})${drained ? '' : '; NOT drained in time'}`,
      `events without exactly one delivery row: ${notOne}; rows not succeeded: ${notSucceeded}; rows without exactly one successful attempt: ${successesNotOne}`,
      `receiver: ${receipts.length} POSTs; events never received: ${missing}; ids that are no event: ${unknown}; signatures not verified: ${unverified}; answers logged but not received: ${unseenAnswers}`,
      `repeats: ${repeats} POSTs beyond the first, over ${repeatedEvents} events; not explained by an unrecorded attempt at the kill or the cut: ${unexplained}`,
      ...examples.map((x) => `  e.g. ${x}`),
    ],
  };
}

/** `zarpay ledger verify`, as an operator runs it: exit 0 and `ok: true`. */
export function ledgerCheck(result: { code: number; stdout: string; stderr: string; json?: any }): Check {
  const ok = result.code === 0 && result.json?.ok === true;
  const text = (result.code === 0 ? result.stdout : result.stderr).trim().replace(/\s+/g, ' ');
  return { name: '`zarpay ledger verify`', ok, lines: [`exit ${result.code}: ${text.length > 600 ? `${text.slice(0, 600)}…` : text}`] };
}
