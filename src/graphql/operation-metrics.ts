import { type DocumentNode, type ExecutionResult, getOperationAST, type OperationDefinitionNode } from 'graphql';
import type { Metrics } from '../metrics.ts';

/**
 * The operation names `zarpay_graphql_operations_total` counts by name: those of zarpay's own
 * clients and documentation (GraphiQL's default query, the examples of docs/graphql.md; the
 * CLI's operations are unnamed). Any other name is counted as `other`, and an unnamed operation
 * as `anonymous`: a label value is never taken from the request, so no client can add series
 * (each costs memory for as long as the process lives, and bytes on every scrape).
 * test/observability.test.ts fails when a documented operation is missing here.
 */
export const KNOWN_OPERATION_NAMES: ReadonlySet<string> = new Set(['Create', 'Dashboard', 'Payout', 'Payouts']);

/** An operation's labels for `/metrics`, worked out once per operation of a document. */
const labelsOf = new WeakMap<OperationDefinitionNode, { type: string; name: string }>();
const UNKNOWN = { type: 'unknown', name: 'other' };

function operationLabels(document: DocumentNode, operationName?: string | null) {
  // Keyed by the operation the name selects, never by the name: a client can send one document
  // with any number of operation names.
  const operation = getOperationAST(document, operationName);
  if (!operation) return UNKNOWN;
  let labels = labelsOf.get(operation);
  if (!labels) {
    const name = operation.name?.value;
    labels = { type: operation.operation, name: name === undefined ? 'anonymous' : KNOWN_OPERATION_NAMES.has(name) ? name : 'other' };
    labelsOf.set(operation, labels);
  }
  return labels;
}

/** Counts one executed (or refused) operation by type, name and outcome; shared with the direct path. */
export function recordOperation(metrics: Metrics, document: DocumentNode, operationName: string | null | undefined, result: ExecutionResult) {
  const { type, name } = operationLabels(document, operationName);
  const refused = result.errors?.some((e) => e.extensions?.code === 'RATE_LIMIT_EXCEEDED');
  metrics.graphqlOperation(type, name, refused ? 'refused' : result.errors?.length ? 'error' : 'ok');
}
