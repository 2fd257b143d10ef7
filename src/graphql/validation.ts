import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import { AppError, type ErrorCode, isErrorCode, type ProblemDetail } from '../domain/errors.ts';
import { contractCode, fieldInWords, fieldName, plainMessage, unstorable } from '../domain/validation.ts';

/**
 * GraphQL arguments are checked with the domain's own input schemas, through @pothos/plugin-zod:
 * `validate: validated(createPayoutInput)` on the argument. The resolver receives the schema's
 * output (defaults filled, nulls gone), read back typed with `validatedInput`. A refusal names
 * the GraphQL field (`input.amountCents`) and carries the contract code the field's refusal
 * has in REST too.
 */
export function validated<S extends z.ZodType>(schema: S) {
  return {
    schema: z.unknown().transform((value, ctx) => {
      const bad = unstorable(value);
      if (bad) {
        ctx.addIssue({ code: 'custom', path: bad.path, message: bad.why, params: { code: 'VALIDATION_FAILED' } });
        return z.NEVER;
      }
      const result = schema.safeParse(value, { reportInput: true });
      if (result.success) return result.data as z.output<S>;
      for (const issue of result.error.issues) {
        ctx.addIssue({ code: 'custom', path: issue.path, message: plainMessage(issue), params: { code: contractCode(schema, issue) } });
      }
      return z.NEVER;
    }),
  };
}

/** An argument validated with `validated(schema)`: the plugin has put the schema's output in its place. */
export function validatedInput<S extends z.ZodType>(_schema: S, value: unknown): z.output<S> {
  return value as z.output<S>;
}

/** plugin-zod's refusal of a field's arguments, as a contract error listing every problem. */
export function zodRefusal(error: z.ZodError, _args: unknown, _ctx: unknown, _info: GraphQLResolveInfo): AppError {
  const details: ProblemDetail[] = error.issues.map((issue) => ({ field: fieldName(issue.path, 'arguments'), message: issue.code === 'custom' ? issue.message : plainMessage(issue) }));
  const first = error.issues[0];
  const given = (first as { params?: { code?: unknown } } | undefined)?.params?.code;
  const code: ErrorCode = isErrorCode(given) ? given : 'VALIDATION_FAILED';
  return new AppError(code, `${fieldInWords(details[0]?.field ?? 'arguments')}: ${details[0]?.message}`, { details });
}
