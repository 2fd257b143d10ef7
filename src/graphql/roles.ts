import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { roleMayMutate } from '../domain/people.ts';
import { AppError } from '../domain/errors.ts';
import type { GraphQLContext } from './builder.ts';

/**
 * The dashboard's roles over GraphQL (CONTRACT §10): a person signed in with a session may run a
 * mutation only if their role allows it (`roleMayMutate`: owners every one, developers keys and
 * webhooks, viewers none), else FORBIDDEN, before the mutation's own resolver runs. Every mutation
 * of the schema is wrapped, so one added later is the owners' alone until it is named for a role.
 * A change a person makes is written to the audit log with who they are.
 */
export function guardMutations(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  if (!mutation) return schema;
  for (const field of Object.values(mutation.getFields())) {
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = async (source, args, ctx: GraphQLContext, info) => {
      const actor = ctx.actor;
      const person = actor?.kind === 'merchant' ? actor.person : undefined;
      if (!person) return resolve(source, args, ctx, info);
      if (!roleMayMutate(person.role, field.name)) throw new AppError('FORBIDDEN', `your role (${person.role}) may not do this: ${field.name}`);
      const result = await resolve(source, args, ctx, info);
      await ctx.services.audit.recordPersonAction(actor!, field.name);
      return result;
    };
  }
  return schema;
}
