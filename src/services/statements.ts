import * as ledger from '../db/ledger.ts';
import { balanceBefore, movementsBetween } from '../db/merchant-statement.ts';
import { type Actor, oneMerchantScope } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { entriesOf, type StatementEntry, type StatementQuery, statementWindow } from '../domain/statement.ts';
import type { ServiceDeps } from './deps.ts';

/**
 * A statement being read: its opening balance at once, its entries as they are read from the
 * journal (in batches), and its closing balance and count once the entries have been read.
 */
export interface StatementReader {
  from: string;
  to: string;
  merchantId: string;
  openingBalanceCents: number;
  /** Oldest first; read once. */
  entries: AsyncIterable<StatementEntry>;
  /** After `entries` has been read to its end: opening + Σ amount, and how many entries there were. */
  summary(): { closingBalanceCents: number; total: number };
}

/** A statement read whole (GraphQL, the CLI through it). */
export interface Statement {
  from: string;
  to: string;
  merchantId: string;
  openingBalanceCents: number;
  closingBalanceCents: number;
  total: number;
  entries: StatementEntry[];
}

/** Merchants' statements (CONTRACT §10): the movements of their balance over SAST days, from the ledger. */
export class StatementService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * The merchant's own statement, or the one of the merchant the operator names. Entries are read
   * lazily, a batch at a time: a caller that streams them holds one batch at most. The closing
   * balance is the opening balance plus what was read, so the two always agree.
   */
  async open(actor: Actor, query: Pick<StatementQuery, 'from' | 'to'>, merchantId?: string | null): Promise<StatementReader> {
    const s = oneMerchantScope(actor, merchantId);
    if (!isUuid(s.merchantId) || !(await ledger.balanceOf(this.deps.db, s))) throw new AppError('NOT_FOUND', 'merchant not found');
    const { start, end } = statementWindow(query);
    const opening = await balanceBefore(this.deps.db, s, start);
    let balance = opening;
    let total = 0;
    let finished = false;
    const db = this.deps.db;
    async function* entries(): AsyncGenerator<StatementEntry> {
      for await (const movement of movementsBetween(db, s, start, end)) {
        for (const entry of entriesOf(movement, balance)) {
          total += 1;
          balance = entry.balanceAfterCents;
          yield entry;
        }
      }
      finished = true;
    }
    return {
      from: query.from,
      to: query.to,
      merchantId: s.merchantId,
      openingBalanceCents: opening,
      entries: entries(),
      summary() {
        if (!finished) throw new Error('a statement\'s summary is known only once its entries have been read');
        return { closingBalanceCents: balance, total };
      },
    };
  }

  /** The whole statement in memory: for GraphQL, whose answer is one document anyway. */
  async get(actor: Actor, query: Pick<StatementQuery, 'from' | 'to'>, merchantId?: string | null): Promise<Statement> {
    const reader = await this.open(actor, query, merchantId);
    const entries: StatementEntry[] = [];
    for await (const e of reader.entries) entries.push(e);
    const { closingBalanceCents, total } = reader.summary();
    return { from: reader.from, to: reader.to, merchantId: reader.merchantId, openingBalanceCents: reader.openingBalanceCents, closingBalanceCents, total, entries };
  }
}
