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

export function payoutTable(payouts: Record<string, any>[], total: number, offset = 0): string {
  const rows = payouts.map((p) => ({
    id: p.id,
    merchant: p.merchant_id,
    status: p.status,
    amount: formatRand(p.amount_cents),
    fee: formatRand(p.fee_cents),
    gross: formatRand(p.gross_amount_cents),
    reference: p.merchant_reference ?? '',
    // A bank name that names another bank than the branch code's: the money goes to the code's.
    bank: p.bank_account
      ? `${p.bank_account.bank_name} ${p.bank_account.account_number_masked}${p.bank_account.bank_name_mismatch ? ` (MISMATCH: code is ${p.bank_account.bank})` : ''}`
      : '',
    holder: p.bank_account?.account_holder ?? '',
    created: String(p.created_at).replace('T', ' ').slice(0, 19),
  }));
  const range = offset > 0 && payouts.length > 0 ? `${offset + 1}–${offset + payouts.length}` : String(payouts.length);
  const shown = `${range} of ${total} payout${total === 1 ? '' : 's'}`;
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
  lines.push(`refunds pending:    ${stats.refunds_pending}${stats.refunds_pending_stale ? `, ${stats.refunds_pending_stale} overdue (zarpay refund list --stale; zarpay refund resolve ID)` : ''}`);
  lines.push(`refunds failed:     ${stats.refunds_failed}`);
  const owed = [stats.refunds_owed_pending, stats.refunds_owed_succeeded, stats.refunds_owed_failed];
  if (owed.some((n) => n)) lines.push(`late money back:    ${owed[0]} pending, ${owed[1]} given back, ${owed[2]} failed (give those back by hand)`);
  const mismatched = [stats.mismatched_notifications, stats.mismatched_refund_notifications];
  if (mismatched.some((n) => n)) lines.push(`not matching:       ${mismatched[0]} payment, ${mismatched[1]} refund notifications (zarpay audit)`);
  const unreadable = ((stats.sealed_values_unreadable ?? []) as { kind: string; count: number }[]).filter((u) => u.count > 0);
  if (unreadable.length > 0) lines.push(`unreadable sealed:  ${unreadable.map((u) => `${u.count} ${u.kind.toLowerCase()}`).join(', ')} (see zarpay rotate-data-key --dry-run)`);
  return lines.join('\n');
}

const when = (iso: unknown) => (iso ? String(iso).replace('T', ' ').slice(0, 19) : '');

export function merchantTable(merchants: Record<string, any>[]): string {
  if (merchants.length === 0) return 'no merchants';
  const rows = merchants.map((m) => ({
    id: m.merchant_id,
    name: m.name,
    payment_fee: `${(m.payment_fee_bps / 100).toFixed(2)} %${m.payment_fee_fixed_cents ? ` + ${formatRand(m.payment_fee_fixed_cents)}` : ''}`,
    payout_fee: formatRand(m.payout_fee_cents),
    auto_topup: m.auto_topup ? 'yes' : 'no',
    webhook: m.webhook_url ?? '',
    created: when(m.created_at),
  }));
  return `${renderTable(rows, Object.keys(rows[0]!))}\n\n${merchants.length} merchant${merchants.length === 1 ? '' : 's'}`;
}

/**
 * One row per delivery; its attempts in one column, in order: the HTTP status each got, or
 * what went wrong (`timeout`, `refused`), so a failing receiver shows at a glance.
 */
export function deliveryTable(deliveries: Record<string, any>[]): string {
  if (deliveries.length === 0) return 'no deliveries';
  const rows = deliveries.map((d) => ({
    id: d.id,
    event: d.event_type,
    merchant: d.merchant_id,
    status: d.status,
    attempts: d.attempt_log.length === 0 ? '—' : d.attempt_log.map((a: any) => (a.status_code ?? shortError(a.error))).join(', '),
    next: when(d.next_attempt_at),
    created: when(d.created_at),
    url: d.url,
  }));
  return `${renderTable(rows, Object.keys(rows[0]!))}\n\n${deliveries.length} deliver${deliveries.length === 1 ? 'y' : 'ies'}`;
}

function shortError(error: unknown): string {
  const text = String(error ?? 'error');
  if (/timed? ?out|abort/i.test(text)) return 'timeout';
  if (/ECONNREFUSED|refused/i.test(text)) return 'refused';
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
}
