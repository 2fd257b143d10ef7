import { type DocumentNode, type ExecutionResult, getOperationAST } from 'graphql';
import type { Metrics } from '../metrics.ts';

/** An operation's labels for `/metrics`, worked out once per document. */
const labelsOf = new WeakMap<DocumentNode, Map<string, { type: string; name: string }>>();

function operationLabels(document: DocumentNode, operationName?: string | null) {
  let byName = labelsOf.get(document);
  if (!byName) labelsOf.set(document, (byName = new Map()));
  let labels = byName.get(operationName ?? '');
  if (!labels) {
    const operation = getOperationAST(document, operationName);
    labels = { type: operation?.operation ?? 'unknown', name: operation?.name?.value ?? 'anonymous' };
    byName.set(operationName ?? '', labels);
  }
  return labels;
}

/** Counts one executed (or refused) operation by type, name and outcome; shared with the direct path. */
export function recordOperation(metrics: Metrics, document: DocumentNode, operationName: string | null | undefined, result: ExecutionResult) {
  const { type, name } = operationLabels(document, operationName);
  const refused = result.errors?.some((e) => e.extensions?.code === 'RATE_LIMIT_EXCEEDED');
  metrics.graphqlOperation(type, name, refused ? 'refused' : result.errors?.length ? 'error' : 'ok');
}
