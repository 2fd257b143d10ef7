import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { GraphQLError, NoSchemaIntrospectionCustomRule, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.ts';
import { tag } from './errors.ts';

/**
 * Reports a limit as an ordinary validation (or parse) error instead of throwing, so the
 * document is refused before any resolver runs and the error carries VALIDATION_FAILED.
 */
const report = {
  propagateOnRejection: false,
  exposeLimits: true,
  onReject: [
    (ctx: ValidationContext | null, error: GraphQLError) => {
      // graphql-armor prefixes every refusal with "Syntax Error: ", which these are not.
      error.message = error.message.replace(/^Syntax Error: /, '');
      tag(error, 'VALIDATION_FAILED');
      if (ctx) ctx.reportError(error);
      else throw error; // the token limit runs in the parser, where there is no context
    },
  ],
};

/**
 * CONTRACT §8 and docs/graphql.md: depth, cost, alias and token limits from `config.graphql`,
 * field suggestions never shown, and in `prd` no introspection (the schema is published as
 * `schema.graphql` instead).
 */
export function limitPlugins(config: Config): Plugin[] {
  const { maxDepth, maxCost, maxAliases, maxTokens } = config.graphql;
  const plugins: Plugin[] = [
    maxTokensPlugin({ ...report, n: maxTokens }) as Plugin,
    maxDepthPlugin({ ...report, n: maxDepth, ignoreIntrospection: true }) as Plugin,
    maxAliasesPlugin({ ...report, n: maxAliases }) as Plugin,
    costLimitPlugin({ ...report, maxCost, ignoreIntrospection: true }) as Plugin,
    blockFieldSuggestionsPlugin() as Plugin,
  ];
  if (config.serviceEnv === 'prd') {
    plugins.push({ onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule) });
  }
  return plugins;
}
