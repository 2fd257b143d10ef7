/** Server-rendered HTML for the hosted payment page: no JavaScript, one small nonce'd stylesheet. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and quoted attributes; every merchant-supplied string goes through it. */
export const esc = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

const STYLE = `
*{box-sizing:border-box}
fieldset.methods{border:1px solid #d1d5db;border-radius:.5rem;margin:0 0 1rem;padding:.5rem 1rem}
label.choice{display:block;padding:.5rem 0;min-height:44px}
body{margin:0;font:18px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f4f6;color:#111827}
main{max-width:28rem;margin:0 auto;padding:1.25rem}
.card{background:#fff;border-radius:1rem;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.merchant{font-size:1.1rem;font-weight:600;margin:0 0 .25rem;overflow-wrap:anywhere}
.description{margin:0 0 .25rem;overflow-wrap:anywhere}
.order{color:#4b5563;font-size:.9rem;margin:0 0 1rem;overflow-wrap:anywhere}
.amount{font-size:2.5rem;font-weight:700;margin:.5rem 0 1.5rem;letter-spacing:-.02em}
form{margin:0 0 .75rem}
button{width:100%;min-height:3.25rem;font:inherit;font-weight:600;border-radius:.75rem;border:1px solid #d1d5db;background:#fff;color:#111827;cursor:pointer}
button.primary{background:#047857;border-color:#047857;color:#fff}
button.secondary{min-height:2.75rem;border-color:transparent;background:transparent;color:#374151;font-weight:500;text-decoration:underline}
button.warn{color:#b91c1c;border-color:#fca5a5}
label.amount{display:block;font-weight:600;margin:1rem 0 .25rem}
input.amount{box-sizing:border-box;width:100%;min-height:3.25rem;font:inherit;font-size:1.25rem;padding:0 .75rem;border:1px solid #9ca3af;border-radius:.75rem;margin-bottom:.75rem}
p.problem{color:#b91c1c;font-weight:600}
a{color:#065f46}
a.button{display:flex;align-items:center;justify-content:center;min-height:3.25rem;border-radius:.75rem;font-weight:600;text-decoration:none;margin:1rem 0 .75rem;background:#047857;color:#fff}
a.button.secondary{background:#fff;color:#111827;border:1px solid #d1d5db}
.method{color:#374151;font-size:.95rem;margin:0 0 1rem}
.support{color:#4b5563;font-size:.85rem;margin:1rem 0 0;overflow-wrap:anywhere}
nav{margin:1rem 0 0;text-align:center;font-size:.85rem;color:#4b5563}
nav a,nav span{display:inline-block;padding:.5rem .4rem;min-width:2.75rem}
.status{font-size:1.4rem;font-weight:700;margin:0 0 .5rem}
.ok{color:#047857}.bad{color:#b91c1c}.wait{color:#92400e}
.voucher{font:700 1.2rem/1.3 ui-monospace,Menlo,Consolas,monospace;background:#ecfdf5;border:2px dashed #047857;border-radius:.75rem;padding:1rem;text-align:center;overflow-wrap:anywhere}
.note{color:#4b5563;font-size:.85rem;margin:1rem 0 0}
`;

export interface LayoutOptions {
  title: string;
  nonce: string;
  /** The page's language (`<html lang>`). */
  lang: string;
  /** Below the card: the language switcher, already HTML. */
  footer?: string;
  /** Reload the page after this many seconds (processing: no JavaScript needed). */
  refreshSeconds?: number;
  /** Send the browser on to this address at once (the hand-off to a provider's checkout page). */
  forwardTo?: string;
}

export function layout(body: string, o: LayoutOptions): string {
  return `<!doctype html>
<html lang="${esc(o.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${o.refreshSeconds !== undefined ? `<meta http-equiv="refresh" content="${o.refreshSeconds}">\n` : ''}${o.forwardTo !== undefined ? `<meta http-equiv="refresh" content="0;url=${esc(o.forwardTo)}">\n` : ''}<title>${esc(o.title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style nonce="${esc(o.nonce)}">${STYLE}</style>
</head>
<body>
<main>
<div class="card">
${body}
</div>
${o.footer ?? ''}
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

/**
 * The pay button with the ways to pay to choose from (radio buttons, no JavaScript): each
 * `{ value, testId, label }`, `chosen` checked. The choice travels as the form's `method`.
 */
export function payForm(action: string, token: string, o: { legend: string; label: string; chosen: string; choices: { value: string; testId: string; label: string }[] }): string {
  const radios = o.choices.map(
    (c) =>
      `<label class="choice"><input type="radio" name="method" value="${esc(c.value)}" data-testid="${esc(c.testId)}"${c.value === o.chosen ? ' checked' : ''}> ${esc(c.label)}</label>`,
  );
  return `<form method="post" action="${esc(action)}">
<input type="hidden" name="token" value="${esc(token)}">
<fieldset class="methods" data-testid="payment-methods"><legend>${esc(o.legend)}</legend>
${radios.join('\n')}
</fieldset>
<button type="submit" data-testid="pay" class="primary">${esc(o.label)}</button>
</form>`;
}

/** Who is paid, for what, and how much: the merchant is the page's heading. */
export function heading(merchantName: string, amount: string, order: string, description: string | null): string {
  return `<h1 class="merchant" data-testid="merchant-name">${esc(merchantName)}</h1>
${description ? `<p class="description" data-testid="description">${esc(description)}</p>\n` : ''}<p class="order">${esc(order)}</p>
<p class="amount" data-testid="amount">${esc(amount)}</p>`;
}

/** A link styled as a button (Back to the shop, Try again): the page's way out, without JavaScript. */
export function linkButton(href: string, testId: string, label: string, cls = ''): string {
  return `<a class="button${cls ? ` ${cls}` : ''}" href="${esc(href)}" data-testid="${esc(testId)}">${esc(label)}</a>`;
}

export function paragraph(text: string, cls: string, testId?: string): string {
  return `<p class="${cls}"${testId ? ` data-testid="${esc(testId)}"` : ''}>${esc(text)}</p>`;
}

/** How to reach the merchant: a mailto:, tel: or web link, labelled with the contact itself. */
export function supportLine(intro: string, contact: { href: string; text: string }): string {
  return `<p class="support" data-testid="support-contact">${esc(intro)} <a href="${esc(contact.href)}">${esc(contact.text)}</a></p>`;
}

/** The language switcher: each language named in itself, the current one not a link. */
export function languageNav(label: string, current: string, choices: { lang: string; name: string; href: string }[]): string {
  const items = choices.map((c) =>
    c.lang === current ? `<span aria-current="true" lang="${esc(c.lang)}">${esc(c.name)}</span>` : `<a href="${esc(c.href)}" hreflang="${esc(c.lang)}" lang="${esc(c.lang)}">${esc(c.name)}</a>`,
  );
  return `<nav aria-label="${esc(label)}" data-testid="languages">${items.join(' · ')}</nav>`;
}

export function statusLine(status: string, text: string, tone: 'ok' | 'bad' | 'wait'): string {
  return `<p class="status ${tone}" data-testid="payment-status" data-status="${esc(status)}" role="status">${esc(text)}</p>`;
}

export function note(text: string): string {
  return `<p class="note">${esc(text)}</p>`;
}
