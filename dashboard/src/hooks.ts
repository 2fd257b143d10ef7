import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { TadaDocumentNode } from 'gql.tada';
import { ApiError, graphql, live, request, whenSignedOut } from './graphql.ts';
import { switchLanguage } from './i18n.ts';
import { loginFor, navigate } from './router.ts';

/** How screens talk to the API: queries, actions, live updates, and who is signed in. */

export type Role = 'OWNER' | 'DEVELOPER' | 'VIEWER';
/** The signed-in person, and the merchant whose dashboard it is. */
export interface Me {
  email: string;
  role: Role;
  merchant: string;
  /** Their own language (en, af, zu), kept with them. */
  language: string;
}

const asApiError = (e: unknown) => (e instanceof ApiError ? e : new ApiError('INTERNAL_ERROR', String(e)));

/** Loads on mount and whenever `deps` change; `reload` asks again, keeping what is shown meanwhile. */
export function useQuery<R>(load: () => Promise<R>, deps: unknown[] = []) {
  const [state, setState] = useState<{ data?: R; error?: ApiError; loading: boolean }>({ loading: true });
  const reload = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => setState({ data, loading: false }),
      (error) => setState({ error: asApiError(error), loading: false }),
    );
  }, deps);
  useEffect(reload, [reload]);
  return { ...state, reload };
}

/** Runs an action, with its error shown and a busy flag. */
export function useAction<A extends unknown[], R>(act: (...a: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = async (...a: A): Promise<R | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await act(...a);
    } catch (e) {
      setError(asApiError(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error };
}

/** Calls `then` on each event of a subscription while the screen is shown (one stream for the page). */
export function useLive<R, V>(doc: TadaDocumentNode<R, V>, variables: V, then: () => void) {
  // The latest `then`, so the stream is opened once and still reloads the current query.
  const latest = useRef(then);
  latest.current = then;
  useEffect(() => live(doc, variables, () => latest.current()), []);
}

const MeQuery = graphql(`
  query Me { signedInPerson { email role language } viewer { id name } }
`);

/**
 * Who is signed in: undefined until known, null once signed out. Asked on each path until known,
 * unless `ask` is false (the sign-in and invite screens); when the API says the session has
 * ended, back to sign-in.
 */
export function useSignedIn(path: string, ask: boolean) {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  useEffect(() => {
    whenSignedOut(() => {
      setMe(null);
      // Back here after signing in again (a deep link, or a session that ended).
      if (!location.pathname.startsWith('/dashboard/login')) navigate(loginFor(location.pathname, location.search));
    });
  }, []);
  useEffect(() => {
    if (!ask || me) return;
    request(MeQuery).then(
      (r) => {
        if (!r.signedInPerson) return;
        // The person's own language wins over whatever this browser last showed.
        switchLanguage(r.signedInPerson.language);
        setMe({ ...r.signedInPerson, merchant: r.viewer.name });
      },
      () => {},
    );
  }, [path]);
  return [me, setMe] as const;
}

/**
 * Where a list is, page by page (CONTRACT §11 `list-next`): the positions (a connection's
 * `endCursor`, or an offset) of the pages opened so far, so "next" and "back" are exact. A new
 * filter or search (`deps`) starts again at the first page: in the same render, so no stale
 * page is asked for.
 */
export function usePages<P>(deps: unknown[]) {
  const key = JSON.stringify(deps);
  const [state, setState] = useState<{ key: string; trail: P[] }>({ key, trail: [] });
  const trail = state.key === key ? state.trail : [];
  return {
    /** The position of the page shown, null for the first. */
    at: trail.at(-1) ?? null,
    /** 1 for the first page. */
    number: trail.length + 1,
    next: (position: P) => setState({ key, trail: [...trail, position] }),
    back: () => setState({ key, trail: trail.slice(0, -1) }),
  };
}
export type Pages<P> = ReturnType<typeof usePages<P>>;

/** `value` once it has stopped changing for `ms` (a search as one types it). */
export function useSettled<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
