import { type Client, createClient } from 'graphql-sse';

export interface Subscription<T = any> {
  /** Results received so far (data or errors), in order. */
  results: { data?: T; errors?: { message: string; extensions?: { code?: string } }[] }[];
  /** Resolves once `n` results have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<Subscription<T>['results']>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  dispose(): void;
}

/** A graphql-sse client (single- or distinct-connection mode) with the given credentials. */
export function sseClient(baseUrl: string, singleConnection: boolean, headers: Record<string, string>): Client {
  return createClient({ url: `${baseUrl}/graphql/stream`, singleConnection, headers, retryAttempts: 0 });
}

/** Subscribes and records every result, the way a dashboard would consume the stream. */
export function subscribe<T = any>(client: Client, query: string, variables: Record<string, unknown> = {}): Subscription<T> {
  const results: Subscription<T>['results'] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let endResolve!: () => void;
  const ended = new Promise<void>((resolve) => (endResolve = resolve));
  const notify = () => {
    for (const w of [...waiters]) if (results.length >= w.n) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const dispose = client.subscribe<T>(
    { query, variables },
    {
      next: (r) => {
        results.push(r as never);
        notify();
      },
      error: (e) => {
        results.push({ errors: [{ message: String((e as Error)?.message ?? e) }] });
        notify();
        endResolve();
      },
      complete: () => endResolve(),
    },
  );
  return {
    results,
    ended,
    dispose,
    async waitFor(n, timeoutMs = 10_000) {
      if (results.length < n) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`got ${results.length} of ${n} results: ${JSON.stringify(results)}`)), timeoutMs);
          waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
        });
      }
      return results.slice(0, n);
    },
  };
}
