import autocannon from 'autocannon';

/** One measured run of a load generator against one target, in the shape the report prints. */
export interface Measurement {
  requestsPerSec: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
  /** Responses by error code (envelope `error.code`, GraphQL `extensions.code`, or `HTTP <status>`). */
  errors: Record<string, number>;
  total: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSec: number;
  method?: 'GET' | 'POST';
  /** Path (and body) of the i-th request; called once per request so ids and keys rotate. */
  request: (i: number) => { path: string; headers?: Record<string, string>; body?: string };
  /** Parse response bodies for error codes (writes, GraphQL); reads only count non-2xx statuses. */
  inspectBodies?: boolean;
}

/** The error code in a response body, if any: REST envelope or the first GraphQL error. */
function errorCode(status: number, body: string): string | undefined {
  if (status >= 300 || body.includes('"error')) {
    try {
      const json = JSON.parse(body);
      const code = json?.error?.code ?? json?.errors?.[0]?.extensions?.code;
      if (code) return String(code);
    } catch {
      // not JSON
    }
    if (status >= 300) return `HTTP ${status}`;
  }
  return undefined;
}

/** Drives `options.url` with autocannon (in-process) for a fixed duration. */
export async function load(options: LoadOptions): Promise<Measurement> {
  const errors: Record<string, number> = {};
  const count = (code: string) => (errors[code] = (errors[code] ?? 0) + 1);
  let i = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSec,
    pipelining: 1,
    timeout: 30,
    requests: [
      {
        method: options.method ?? 'GET',
        setupRequest: (req) => {
          const next = options.request(i++);
          return {
            ...req,
            path: next.path,
            headers: { ...(next.body !== undefined && { 'content-type': 'application/json' }), ...next.headers },
            ...(next.body !== undefined && { body: next.body }),
          };
        },
        onResponse: (status, body) => {
          if (options.inspectBodies) {
            const code = errorCode(status, body);
            if (code) count(code);
          } else if (status >= 300) count(`HTTP ${status}`);
        },
      },
    ],
  });
  if (result.errors > 0) errors['socket error/timeout'] = result.errors;
  return {
    requestsPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors,
    total: result.requests.total,
  };
}
