import { formatRand } from '../domain/money.ts';

/** `auto` prints a table when stdout is a terminal and JSON otherwise (for scripts and pipes). */
export type OutputFormat = 'auto' | 'json' | 'table';

export function wantsTable(format: OutputFormat): boolean {
  return format === 'table' || (format === 'auto' && process.stdout.isTTY === true);
}

/** Plain aligned columns, so an operator can read the approval queue in a terminal. */
export function renderTable(rows: Record<string, string>[], columns: string[]): string {
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => r[c] ?? '')))].join('\n');
}

export function payoutTable(payouts: Record<string, any>[], total: number): string {
  const rows = payouts.map((p) => ({
    id: p.id,
    merchant: p.merchant_id,
    status: p.status,
    amount: formatRand(p.amount_cents),
    fee: formatRand(p.fee_cents),
    gross: formatRand(p.gross_amount_cents),
    reference: p.merchant_reference ?? '',
    created: String(p.created_at).replace('T', ' ').slice(0, 19),
  }));
  const shown = `${payouts.length} of ${total} payout${total === 1 ? '' : 's'}`;
  return payouts.length ? `${renderTable(rows, Object.keys(rows[0]!))}\n\n${shown}` : `no payouts (${shown})`;
}

export function statsTable(stats: Record<string, any>): string {
  const rows = (stats.payouts as Record<string, any>[]).map((p) => ({
    status: p.status,
    count: String(p.count),
    gross: formatRand(p.gross_cents),
  }));
  const lines = [renderTable(rows, ['status', 'count', 'gross']), ''];
  lines.push(`reserved:           ${formatRand(stats.reserved_cents)}`);
  lines.push(`awaiting approval:  ${formatRand(stats.pending_approval_cents)}`);
  if (stats.oldest_pending_payout_at) lines.push(`oldest pending:     ${stats.oldest_pending_payout_at}`);
  lines.push(`webhooks failing:   ${stats.deliveries_failed} (redeliver with: zarpay webhooks redeliver EVENT_ID)`);
  lines.push(`webhooks pending:   ${stats.deliveries_pending}`);
  return lines.join('\n');
}
