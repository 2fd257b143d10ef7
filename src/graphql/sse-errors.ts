import type { Plugin } from 'graphql-yoga';
import { ERROR_STATUS, isAppError } from '../domain/errors.ts';
import type { Services } from '../services/index.ts';

/**
 * graphql-sse only recognises an execution result by its `data` member; graphql-js returns a
 * refused subscription (bad arguments, not allowed) as `{ errors }` alone, which the SSE handler
 * would then answer with "Unable to detect operation AST". Adding `data: null` lets the refusal
 * reach the client as a normal GraphQL error with its `extensions.code`.
 */
export function useSubscriptionErrorResults(): Plugin {
  return {
    onSubscribe: () => ({
      onSubscribeResult: ({ result, setResult }) => {
        if (!(Symbol.asyncIterator in result) && !('data' in result)) setResult({ ...result, data: null });
      },
    }),
  };
}

/**
 * Refuses bad credentials on `/graphql/stream` with the REST status (401/403) and code before the
 * graphql-sse handler runs: a context factory that throws there would surface as a 500.
 * Must come before `useGraphQLSSE()` in the plugin list.
 */
export function useStreamAuthentication(services: Services, operatorOk: (header: string | null) => boolean, endpoint = '/graphql/stream'): Plugin {
  return {
    onRequest: async ({ request, endResponse, fetchAPI }) => {
      if (!request.url.split('?')[0]!.endsWith(endpoint)) return;
      const authorization = request.headers.get('authorization');
      const key = request.headers.get('x-api-key');
      let failure: { code: keyof typeof ERROR_STATUS; message: string } | undefined;
      if (authorization && !operatorOk(authorization)) failure = { code: 'UNAUTHORIZED', message: 'invalid operator token' };
      else if (key !== null) {
        try {
          await services.keys.authenticate(key);
        } catch (e) {
          if (!isAppError(e)) throw e;
          failure = { code: e.code, message: e.message };
        }
      }
      if (failure) {
        endResponse(
          new fetchAPI.Response(JSON.stringify({ errors: [{ message: failure.message, extensions: { code: failure.code } }] }), {
            status: ERROR_STATUS[failure.code],
            headers: { 'content-type': 'application/json; charset=utf-8' },
          }),
        );
      }
    },
  };
}
