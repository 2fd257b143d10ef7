import {
  type ArgumentNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getVariableValues,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  TypeMetaFieldDef,
  visit,
} from 'graphql';
import type { RateLimitedOperation } from '../config.ts';
import { PAGE_DEFAULT, PAGE_MAX } from '../domain/validation.ts';
import { GRAPHQL_RATE_LIMITS } from './rate-limit.ts';

/**
 * What an operation costs, worked out on the request as it will run: page sizes as the
 * variables give them (coerced as the executor will), an omitted `first`/`last` at the list's
 * default. One estimate serves the cost limit and the rate budgets, so neither can be dodged by
 * moving a number into a variable or leaving it out. docs/graphql.md states the formula.
 */
export interface Estimate {
  /** graphql-armor's formula (scalar 1, object 2, ×1.5 per level) × the rows of each list asked for. */
  cost: number;
  /** Units of each REST budget the operation uses (rate-limit.ts). */
  units: Map<RateLimitedOperation, number>;
}

/** How many rows a list with `first`/`last` reads when they are omitted, and at most. */
interface PageSize {
  default: number;
  max: number;
}

/** Relay connections and other lists with `first`: 50 by default, at most 100. */
const PAGED: PageSize = { default: PAGE_DEFAULT, max: PAGE_MAX };
/** Lists whose page size differs, by schema coordinate. */
const PAGE_SIZES: Record<string, PageSize> = {
  'Query.auditLog': { default: 100, max: 500 },
};

/** One unit of a budget buys this many rows of a list (the default page): a point read is one unit. */
const ROWS_PER_UNIT = PAGE_DEFAULT;

const SCALAR_COST = 1;
const OBJECT_COST = 2;
const DEPTH_FACTOR = 1.5;

/** What is known of an operation before its variables: either its estimate, or which variables it depends on. */
type Plan = { estimate: Estimate } | { pageVariables: Set<string> };
const plans = new WeakMap<OperationDefinitionNode, Plan>();

/**
 * The estimate of `operation` for these raw request variables; undefined when the variables it
 * depends on do not coerce (the executor then refuses them itself, before anything runs). An
 * operation whose page sizes are all literals (or omitted) is walked once and remembered.
 */
export function estimate(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown> | null | undefined): Estimate | undefined {
  let plan = plans.get(operation);
  if (!plan) {
    const pageVariables = pageSizeVariables(document);
    plan = pageVariables.size ? { pageVariables } : { estimate: walkOperation(schema, document, operation, {}) };
    plans.set(operation, plan);
  }
  if ('estimate' in plan) return plan.estimate;
  const definitions = (operation.variableDefinitions ?? []).filter((d) => plan.pageVariables.has(d.variable.name.value));
  const coerced = getVariableValues(schema, definitions, variables ?? {}, { maxErrors: 1, hideSuggestions: true });
  if (coerced.errors) return undefined;
  return walkOperation(schema, document, operation, coerced.coerced);
}

/** Variables given as `first` or `last` anywhere in the document (a syntactic look: fragments included). */
function pageSizeVariables(document: DocumentNode): Set<string> {
  const names = new Set<string>();
  visit(document, {
    Argument(node: ArgumentNode) {
      if ((node.name.value === 'first' || node.name.value === 'last') && node.value.kind === Kind.VARIABLE) names.add(node.value.name.value);
    },
  });
  return names;
}

function walkOperation(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>): Estimate {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const units = new Map<RateLimitedOperation, number>();
  const root = schema.getRootType(operation.operation);
  if (!root) return { cost: 0, units };

  const rowsOf = (coordinate: string, field: GraphQLField<unknown, unknown>, args: readonly ArgumentNode[] | undefined): number | undefined => {
    if (!field.args.some((a) => a.name === 'first' || a.name === 'last')) return undefined;
    const size = PAGE_SIZES[coordinate] ?? PAGED;
    let rows: number | undefined;
    for (const arg of args ?? []) {
      if (arg.name.value !== 'first' && arg.name.value !== 'last') continue;
      const value = arg.value.kind === Kind.INT ? Number(arg.value.value) : arg.value.kind === Kind.VARIABLE ? variables[arg.value.name.value] : undefined;
      if (typeof value === 'number' && Number.isFinite(value)) rows = Math.max(rows ?? 0, value);
    }
    // Beyond its maximum the field refuses the request itself; counted at the most it can read.
    return Math.min(Math.max(rows ?? size.default, 0), size.max);
  };

  /**
   * A fragment's cost and units depend only on the variables and on where it is spread (the
   * budgets already counted above it, the rows of the lists around it): each is walked once per
   * such place, so repeated spreads cannot make the walk exponential.
   */
  const memo = new Map<string, { cost: number; units: Map<RateLimitedOperation, number> }>();

  /** The cost of a selection set: the sum of its selections' (graphql-armor's cost-limit formula). */
  const walk = (
    set: SelectionSetNode,
    type: GraphQLNamedType | undefined,
    inside: ReadonlySet<RateLimitedOperation>,
    around: number,
    into: Map<RateLimitedOperation, number>,
  ): number => {
    let cost = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) ?? undefined) : type;
        cost += OBJECT_COST + DEPTH_FACTOR * walk(sel.selectionSet, cond, inside, around, into);
      } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments.get(sel.name.value);
        if (!frag) continue;
        const key = `${frag.name.value}|${[...inside].join(',')}|${around}`;
        let done = memo.get(key);
        if (!done) {
          const own = new Map<RateLimitedOperation, number>();
          // Marked before the walk: a cycle (refused by validation anyway) costs nothing more.
          memo.set(key, { cost: 0, units: own });
          done = { cost: walk(frag.selectionSet, schema.getType(frag.typeCondition.name.value) ?? undefined, inside, around, own), units: own };
          memo.set(key, done);
        }
        for (const [op, n] of done.units) into.set(op, (into.get(op) ?? 0) + n);
        cost += SCALAR_COST + DEPTH_FACTOR * (OBJECT_COST + DEPTH_FACTOR * done.cost);
      } else {
        const name = sel.name.value;
        // Introspection is bounded by its own depth limit (limits.ts) and by the schema's size:
        // GraphiQL's standard query alone would be over any useful cost limit.
        if (name === '__schema') continue;
        const field = name === '__type' ? TypeMetaFieldDef : isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
        const coordinate = `${type?.name}.${name}`;
        const rows = field && rowsOf(coordinate, field, sel.arguments);
        const op = GRAPHQL_RATE_LIMITS[coordinate];
        let within = inside;
        if (op && !inside.has(op)) {
          // A point read is one unit; a list one unit per ROWS_PER_UNIT rows, over every row of
          // the lists around it.
          const n = rows === undefined ? 1 : Math.max(1, Math.ceil((rows * around) / ROWS_PER_UNIT));
          into.set(op, (into.get(op) ?? 0) + n);
          within = new Set(inside).add(op);
        }
        if (!sel.selectionSet || !field) {
          cost += SCALAR_COST;
          continue;
        }
        const inner = walk(sel.selectionSet, getNamedType(field.type), within, rows === undefined ? around : around * rows, into);
        cost += (OBJECT_COST + DEPTH_FACTOR * inner) * Math.max(rows ?? 1, 1);
      }
    }
    return cost;
  };
  return { cost: walk(operation.selectionSet, root, new Set(), 1, units), units };
}
