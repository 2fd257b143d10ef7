import { ProviderUnavailableError } from './port.ts';

/**
 * One HTTP call to a provider's API, as every adapter here makes it: no redirects followed, one
 * time limit over the whole exchange (the body's reading included), the job's abort honoured
 * as the abort itself, the answer read as JSON when it is JSON. What the answer means is sorted
 * once: a 2xx or a 4xx is given back (yes, or the provider's "no"), anything else is thrown as
 * ProviderUnavailableError ("not now": unreachable, too slow, failed, asked us to slow down, or
 * said something no API documents).
 */

/** A provider's answer that means yes (2xx) or no (4xx). */
export interface ProviderAnswer {
  ok: boolean;
  status: number;
  /** The body as JSON; undefined when it is empty or not JSON. */
  body: unknown;
}

/** An answer before it is classified: what a provider's own rules look at. */
export interface RawAnswer extends ProviderAnswer {
  headers: Headers;
}

export interface ProviderHttp {
  /** The provider's name, as ProviderUnavailableError carries it ('yoco'). */
  name: string;
  /** The provider as messages name it ('Yoco'). */
  label: string;
  /** The API's address, without a trailing slash. */
  apiUrl: string;
  timeoutMs: number;
  fetch: typeof fetch;
  /** Takes out of a message whatever credential the provider may have echoed. */
  clean(message: string): string;
}

export interface ProviderRequest {
  /** What is being done, for messages: 'create checkout'. */
  op: string;
  method: 'GET' | 'POST';
  /** Appended to the API's address: '/checkouts'. */
  path: string;
  headers?: Record<string, string>;
  /** Sent as JSON (`content-type: application/json`). */
  json?: unknown;
  /** Sent form-encoded. */
  form?: URLSearchParams;
  /** The job's abort at shutdown: aborted, the call ends with the signal's own error. */
  signal?: AbortSignal | undefined;
  /**
   * The provider's own reading of an answer, before the common one: it may throw for a status
   * its API gives a meaning of its own (a replayed failure, a Retry-After, a 409).
   */
  classify?: (answer: RawAnswer) => void;
}

export async function providerRequest(p: ProviderHttp, r: ProviderRequest): Promise<ProviderAnswer> {
  r.signal?.throwIfAborted();
  const headers: Record<string, string> = { accept: 'application/json', ...r.headers };
  if (r.json !== undefined) headers['content-type'] = 'application/json';
  else if (r.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  let answer: RawAnswer;
  try {
    const res = await p.fetch(p.apiUrl + r.path, {
      method: r.method,
      headers,
      body: r.json !== undefined ? JSON.stringify(r.json) : r.form?.toString(),
      // The APIs never redirect; following one would send the credentials somewhere else.
      redirect: 'manual',
      // Covers reading the body too: a peer that sends headers and then stalls is a timeout.
      signal: r.signal ? AbortSignal.any([r.signal, AbortSignal.timeout(p.timeoutMs)]) : AbortSignal.timeout(p.timeoutMs),
    });
    const text = await res.text();
    answer = { ok: res.status >= 200 && res.status < 300, status: res.status, headers: res.headers, body: parseJson(text) };
  } catch (e) {
    // The caller let go (its job's shutdown): not the provider's failure.
    if (r.signal?.aborted) throw e;
    const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
    throw new ProviderUnavailableError(
      p.name,
      timedOut ? 'timeout' : 'network',
      timedOut ? `${p.label} did not answer ${r.op} within ${p.timeoutMs} ms` : `${p.label} could not be reached for ${r.op}`,
      undefined,
      { cause: e },
    );
  }
  r.classify?.(answer);
  const { status, body } = answer;
  if (status >= 500) throw new ProviderUnavailableError(p.name, 'server_error', p.clean(`${p.label} failed ${r.op}: HTTP ${status}`), status);
  if (status === 429) throw new ProviderUnavailableError(p.name, 'rate_limited', `${p.label} asked us to slow down (${r.op}): HTTP 429`, status);
  if (status >= 200 && status < 300) return { ok: true, status, body };
  if (status >= 400) return { ok: false, status, body };
  throw new ProviderUnavailableError(p.name, 'bad_response', `${p.label} answered ${r.op} with HTTP ${status}`, status);
}

/** A body as JSON; undefined when it is empty or not JSON (the caller's schema then refuses it). */
export function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
