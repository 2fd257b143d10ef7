import { useEffect, useState } from 'preact/hooks';

/** Routing: plain paths under /dashboard, the History API. */

export function navigate(path: string) {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The current path, kept up to date as links are followed and the browser goes back. */
export function usePath() {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const on = () => setPath(location.pathname);
    addEventListener('popstate', on);
    return () => removeEventListener('popstate', on);
  }, []);
  return path;
}

/** A link's click: followed in the page, unless the person asked for a new tab or window. */
export function follow(href: string) {
  return (e: MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    navigate(href);
  };
}

/**
 * The route for a path, from a table of patterns such as `/dashboard/payouts/:id`: of those whose
 * segments begin the path (a `:name` takes any non-empty segment), the longest. A trailing slash
 * or a deeper path so shows the nearest screen, and anything else the shortest pattern's.
 */
export function match<R extends { path: string }>(routes: readonly R[], path: string): { route: R; params: Record<string, string> } | undefined {
  const segments = path.split('/').slice(1);
  let best: { route: R; params: Record<string, string>; length: number } | undefined;
  for (const route of routes) {
    const pattern = route.path.split('/').slice(1);
    if (pattern.length > segments.length || (best && best.length >= pattern.length)) continue;
    const params: Record<string, string> = {};
    const fits = pattern.every((p, i) => {
      const s = segments[i]!;
      if (!p.startsWith(':')) return p === s;
      params[p.slice(1)] = s;
      return s !== '';
    });
    if (fits) best = { route, params, length: pattern.length };
  }
  return best && { route: best.route, params: best.params };
}

/**
 * Where to go after sign-in, from the `next` the sign-in page was given: a path of this
 * dashboard only (no other origin, no scheme, no `//host`, not the signed-out pages themselves),
 * else undefined. `origin` is the page's own.
 */
export function safeNext(next: string | null | undefined, origin: string): string | undefined {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return undefined;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  if (url.pathname !== '/dashboard' && !url.pathname.startsWith('/dashboard/')) return undefined;
  if (['/dashboard/login', '/dashboard/invite', '/dashboard/forgot', '/dashboard/reset'].includes(url.pathname)) return undefined;
  return url.pathname + url.search;
}

/** The sign-in page's address that comes back here afterwards. */
export const loginFor = (path: string, search = '') =>
  path === '/dashboard' || path === '/dashboard/' || safeNext(path + search, location.origin) === undefined
    ? '/dashboard/login'
    : `/dashboard/login?next=${encodeURIComponent(path + search)}`;
