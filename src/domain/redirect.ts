/**
 * Whether the hosted page may send the customer to `target` (CONTRACT §4): the host must be one
 * of the merchant's allow-listed domains (exact match, case-insensitive), the URL must carry no
 * credentials, and in `prd` it must be https on port 443. Anything else: no redirect.
 */
export function redirectAllowed(target: string | null, allowedDomains: readonly string[], production: boolean): target is string {
  if (!target) return false;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (production) {
    // The URL parser drops a default port (`:443` on https), so any port left is another one.
    if (url.protocol !== 'https:' || url.port !== '') return false;
  } else if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return false;
  }
  const host = url.hostname.toLowerCase();
  return allowedDomains.some((d) => d.toLowerCase() === host);
}
