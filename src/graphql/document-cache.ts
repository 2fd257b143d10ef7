import { type DocumentNode, type FragmentDefinitionNode, Kind, type OperationDefinitionNode, type SelectionSetNode, type Token } from 'graphql';
import { LRUCache } from 'lru-cache';

/**
 * The parsed documents this server keeps, bounded by the memory they hold rather than by their
 * number. Anyone, without credentials, can send a new document on every request; Yoga kept the
 * last 1,024 of them (and 1,024 that did not parse), the direct path another 1,000 with their
 * compiled operations: about 200 MB for 1,000 documents of 700 tokens, more than a process run
 * with `--max-old-space-size=160` has. Now every document is weighed when it is kept, and the
 * least recently used go first once the total is over the budget.
 *
 * Weights are estimates, measured on this service (bench/ and docs/limits.md): about 400 bytes
 * per token parsed and validated, and about 350 bytes per field of an operation compiled by
 * graphql-jit, fragments counted where they are spread.
 */

/** What all kept documents may weigh together (their parse trees, validation and compiled operations). */
export const DOCUMENTS_MAX_BYTES = 8 * 1024 * 1024;
/** What the texts of documents that did not parse may weigh together. */
const PARSE_ERRORS_MAX_BYTES = 2 * 1024 * 1024;

const BYTES_PER_TOKEN = 400;
const BYTES_PER_COMPILED_FIELD = 350;
/** A compiled operation beyond this many fields is not kept (its weight alone would be ~3.5 MB). */
export const COMPILED_MAX_FIELDS = 10_000;

/** Estimated bytes a parsed document holds: its text, and its tokens and nodes. */
export function documentWeight(text: string, document: DocumentNode): number {
  let tokens = 0;
  for (let token: Token | null | undefined = document.loc?.startToken; token; token = token.next) tokens++;
  return 2 * text.length + BYTES_PER_TOKEN * Math.max(tokens, 1);
}

/** Estimated bytes of an operation compiled by graphql-jit, which inlines every fragment where it is spread. */
export function compiledWeight(fields: number): number {
  return BYTES_PER_COMPILED_FIELD * fields;
}

/**
 * How many fields an operation selects once its fragments are spread (what graphql-jit generates
 * code for), or `limit + 1` as soon as it is over `limit`: each fragment is counted once and
 * reused, so the count takes as long as the document is long.
 */
export function expandedFields(document: DocumentNode, operation: OperationDefinitionNode, limit = COMPILED_MAX_FIELDS): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const sizes = new Map<string, number>();
  const count = (set: SelectionSetNode): number => {
    let n = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) n += 1 + (sel.selectionSet ? count(sel.selectionSet) : 0);
      else if (sel.kind === Kind.INLINE_FRAGMENT) n += count(sel.selectionSet);
      else {
        let size = sizes.get(sel.name.value);
        if (size === undefined) {
          sizes.set(sel.name.value, 0); // a cycle (refused by validation) adds nothing
          const frag = fragments.get(sel.name.value);
          size = frag ? count(frag.selectionSet) : 0;
          sizes.set(sel.name.value, size);
        }
        n += size;
      }
      if (n > limit) return limit + 1;
    }
    return n;
  };
  return count(operation.selectionSet);
}

/** Yoga's parse caches (`parserAndValidationCache`), bounded by weight. */
export function documentCaches() {
  const documents = new LRUCache<string, DocumentNode>({ maxSize: DOCUMENTS_MAX_BYTES, sizeCalculation: (document, text) => documentWeight(text, document) });
  const errors = new LRUCache<string, Error>({ maxSize: PARSE_ERRORS_MAX_BYTES, sizeCalculation: (_error, text) => 2 * text.length + 1024 });
  return { documents, errors };
}

export type DocumentCaches = ReturnType<typeof documentCaches>;
