/** Server-rendered HTML for the hosted payment page: no JavaScript, one small nonce'd stylesheet. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and quoted attributes; every merchant-supplied string goes through it. */
export const esc = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:18px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f4f6;color:#111827}
main{max-width:28rem;margin:0 auto;padding:1.25rem}
.card{background:#fff;border-radius:1rem;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.merchant{font-size:1.1rem;font-weight:600;margin:0 0 .25rem;overflow-wrap:anywhere}
.order{color:#6b7280;font-size:.9rem;margin:0 0 1rem;overflow-wrap:anywhere}
.amount{font-size:2.5rem;font-weight:700;margin:.5rem 0 1.5rem;letter-spacing:-.02em}
form{margin:0 0 .75rem}
button{width:100%;min-height:3.25rem;font:inherit;font-weight:600;border-radius:.75rem;border:1px solid #d1d5db;background:#fff;color:#111827;cursor:pointer}
button.primary{background:#047857;border-color:#047857;color:#fff}
button.warn{color:#b91c1c;border-color:#fca5a5}
.status{font-size:1.4rem;font-weight:700;margin:0 0 .5rem}
.ok{color:#047857}.bad{color:#b91c1c}.wait{color:#92400e}
.voucher{font:700 1.2rem/1.3 ui-monospace,Menlo,Consolas,monospace;background:#ecfdf5;border:2px dashed #047857;border-radius:.75rem;padding:1rem;text-align:center;overflow-wrap:anywhere}
.note{color:#6b7280;font-size:.85rem;margin:1rem 0 0}
`;

export interface LayoutOptions {
  title: string;
  nonce: string;
  /** Reload the page after this many seconds (processing: no JavaScript needed). */
  refreshSeconds?: number;
}

export function layout(body: string, o: LayoutOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${o.refreshSeconds !== undefined ? `<meta http-equiv="refresh" content="${o.refreshSeconds}">\n` : ''}<title>${esc(o.title)}</title>
<style nonce="${esc(o.nonce)}">${STYLE}</style>
</head>
<body>
<main>
<div class="card">
${body}
</div>
</main>
</body>
</html>`;
}

/** A plain POST form with the per-payment token and one button. */
export function actionForm(action: string, token: string, testId: string, label: string, cls = ''): string {
  return `<form method="post" action="${esc(action)}">
<input type="hidden" name="token" value="${esc(token)}">
<button type="submit" data-testid="${esc(testId)}"${cls ? ` class="${cls}"` : ''}>${esc(label)}</button>
</form>`;
}

export function heading(merchantName: string, amount: string, orderId: string): string {
  return `<p class="merchant" data-testid="merchant-name">${esc(merchantName)}</p>
<p class="order">Order ${esc(orderId)}</p>
<p class="amount" data-testid="amount">${esc(amount)}</p>`;
}

export function statusLine(status: string, text: string, tone: 'ok' | 'bad' | 'wait'): string {
  return `<p class="status ${tone}" data-testid="payment-status" data-status="${esc(status)}" role="status">${esc(text)}</p>`;
}

export function note(text: string): string {
  return `<p class="note">${esc(text)}</p>`;
}
