import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin, maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { type GraphQLError, type GraphQLSchema, getIntrospectionQuery, NoSchemaIntrospectionCustomRule, parse, type ValidationContext, validate } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.ts';
import { tag } from './errors.ts';

/**
 * Reports a limit as an ordinary validation (or parse) error instead of throwing, so the
 * document is refused before any resolver runs and the error carries VALIDATION_FAILED.
 */
const report = (reword: (message: string) => string = (m) => m) => ({
  propagateOnRejection: false,
  exposeLimits: true,
  onReject: [
    (ctx: ValidationContext | null, error: GraphQLError) => {
      // graphql-armor prefixes every refusal with "Syntax Error: ", which these are not.
      error.message = reword(error.message.replace(/^Syntax Error: /, ''));
      tag(error, 'VALIDATION_FAILED');
      if (ctx) ctx.reportError(error);
      else throw error; // the token limit runs in the parser, where there is no context
    },
  ],
});

/**
 * How deep introspection may nest: as deep as graphql-js' standard introspection query, the one
 * GraphiQL sends (its `TypeRef` fragment follows `ofType` 9 levels down), and no deeper. Counted
 * like any other selection; graphql-js' own rule already stops `fields`, `interfaces`,
 * `possibleTypes` and `inputFields` from nesting 3 lists deep.
 */
export function introspectionDepth(schema: GraphQLSchema): number {
  const standard = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
  let depth = 0;
  validate(schema, parse(standard), [maxDepthRule({ n: Number.MAX_SAFE_INTEGER, ignoreIntrospection: false, onAccept: [(_ctx, { n }) => void (depth = n)] })]);
  return depth;
}

/**
 * CONTRACT §8 and docs/graphql.md: depth, alias and token limits from `config.graphql`, checked
 * on the document; introspection bounded by its own depth; in `prd` no introspection at all (the
 * schema is published as `schema.graphql` instead). The cost limit depends on the request's
 * variables, so it is checked with them, before execution (admission.ts); suggestions are
 * withheld by the error contract (errors.ts).
 */
export function limitPlugins(config: Config, schema: GraphQLSchema): Plugin[] {
  const { maxDepth, maxAliases, maxTokens } = config.graphql;
  const plugins: Plugin[] = [
    maxTokensPlugin({ ...report(), n: maxTokens }) as Plugin,
    maxDepthPlugin({ ...report(), n: maxDepth, ignoreIntrospection: true }) as Plugin,
    maxAliasesPlugin({ ...report(), n: maxAliases }) as Plugin,
  ];
  if (config.serviceEnv === 'prd') {
    plugins.push({ onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule) });
  } else {
    // The same count with introspection included, against the larger of the two bounds: only a
    // document whose introspection nests deeper than the standard query's is refused here.
    const n = Math.max(maxDepth, introspectionDepth(schema));
    const reword = (m: string) => m.replace(/^Query depth limit of (\d+)/, 'Depth limit of $1 (introspection included)');
    plugins.push(maxDepthPlugin({ ...report(reword), n, ignoreIntrospection: false }) as Plugin);
  }
  return plugins;
}
