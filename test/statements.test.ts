import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_FEE_SQL } from '../src/db/payments.ts';
import { ensureTable } from '../src/db/rate-limit-counters.ts';
import { allStatements, statement } from '../src/db/statement.ts';
import { paymentFee } from '../src/domain/money.ts';
import '../src/runtime.ts'; // every statement the service defines
import { freshDatabase } from './support/app.ts';

// Every module of the data layer, whoever imports it (the health check's is the server's alone).
const DB = new URL('../src/db/', import.meta.url);
for (const file of readdirSync(DB).filter((f) => f.endsWith('.ts'))) await import(new URL(file, DB).href);

/**
 * The statements of src/db are SQL written out in full, fixed when their modules load. These
 * checks hold them to the schema and to the domain's rules without running the service.
 */
let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
  // The rate-limit counters' table is no migration's: the service creates it before its first count.
  await ensureTable(db.handle.pool ?? db.handle.pglite!);
});
afterAll(async () => {
  await db?.handle.close();
  await db?.drop();
});

describe('every statement', () => {
  it('is fixed text with only named parameters, each used as a parameter', () => {
    const statements = allStatements();
    expect(statements.length).toBeGreaterThan(20);
    for (const s of statements) {
      expect(s.sql, s.name).not.toMatch(/(?<![:\w]):[a-zA-Z]/);
      const numbered = new Set([...s.sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
      expect([...numbered].sort((a, b) => a - b), s.name).toEqual(s.parameters.map((_p, i) => i + 1));
    }
  });

  it('prepares against the migrated schema (names, columns and types all resolve)', async () => {
    for (const [i, s] of allStatements().entries()) {
      await sql.raw(`prepare zarpay_statement_check_${i} as ${s.sql}`).execute(db.handle.db);
      await sql.raw(`deallocate zarpay_statement_check_${i}`).execute(db.handle.db);
    }
  });
});

describe('the payment fee in SQL', () => {
  // The initiation statement computes the fee from the merchant's row as it commits; the rule is
  // the domain's paymentFee. Same expression text as the statement, evaluated for many rates.
  const feeProbe = statement<{ amountCents: number; bps: number; fixed: number }, { fee: number }>(
    'payment fee probe',
    `select ${PAYMENT_FEE_SQL} as fee from (select :bps::int as payment_fee_bps, :fixed::bigint as payment_fee_fixed_cents) m`,
  );

  it('is CONTRACT §4\'s rule exactly, the same as the domain\'s paymentFee', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 5500, max: 300000 }), fc.integer({ min: 0, max: 10000 }), fc.integer({ min: 0, max: 1_000_000 }), async (amountCents, bps, fixed) => {
        const [row] = await feeProbe.run(db.handle.db, { amountCents, bps, fixed });
        expect(Number(row!.fee)).toBe(paymentFee(amountCents, bps, fixed));
      }),
      { numRuns: 300 },
    );
  });
});
