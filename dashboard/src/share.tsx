import { useState } from 'preact/hooks';
import { type MessageKey, t, useLanguage } from './i18n.ts';

/**
 * An address a shop hands to customers (a payment link, an unpaid payment's page): the URL as
 * text with a copy button, its QR code to print or show at the counter, and a WhatsApp share
 * link (`wa.me`, what South African shops use). `testid` prefixes the test ids of its parts:
 * `{testid}-url`, `{testid}-qr`, `{testid}-whatsapp`.
 */
export function Share(props: { url: string; qrImageUrl: string; text: string; testid: string; title: string }) {
  useLanguage();
  const [copied, setCopied] = useState<MessageKey | null>(null);
  // The clipboard needs a secure page (https, or localhost); elsewhere the person selects the text.
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.url);
      setCopied('share.copied');
    } catch {
      setCopied('share.noCopy');
    }
  };
  return (
    <div class="share">
      <p>
        <code data-testid={`${props.testid}-url`}>{props.url}</code>{' '}
        <button type="button" class="small" onClick={() => void copy()}>
          {t('share.copy')}
        </button>
        <span role="status">{copied && ` ${t(copied)}`}</span>
      </p>
      <img data-testid={`${props.testid}-qr`} src={ownOrigin(props.qrImageUrl)} alt={t('share.qr', { title: props.title })} width={200} height={200} loading="lazy" />
      <p>
        <a data-testid={`${props.testid}-whatsapp`} href={whatsApp(`${props.text} ${props.url}`)} target="_blank" rel="noopener noreferrer">
          {t('share.whatsapp')}
        </a>
        {' · '}
        <a href={props.qrImageUrl} download>
          {t('share.download')}
        </a>
      </p>
    </div>
  );
}

/** A `wa.me` link that opens WhatsApp with `text` ready to send to any chat. */
export const whatsApp = (text: string) => `https://wa.me/?text=${encodeURIComponent(text)}`;

/**
 * The service's signed image address on this page's own origin: the same service serves it,
 * and the dashboard's policy loads images from its own origin only (PUBLIC_BASE_URL may name
 * another host, such as a proxy in front of it).
 */
function ownOrigin(url: string) {
  const u = new URL(url, location.origin);
  return u.pathname + u.search;
}
