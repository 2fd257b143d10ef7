import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const invalid = (message: string) => new GraphQLError(message, { extensions: { code: 'VALIDATION_FAILED' } });

builder.scalarType('UUID', {
  description: 'A UUID, as in the REST API.',
  serialize: (v) => String(v),
  parseValue: (v) => {
    if (typeof v !== 'string' || !UUID.test(v)) throw invalid('expected a UUID');
    return v.toLowerCase();
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || !UUID.test(ast.value)) throw invalid('expected a UUID');
    return ast.value.toLowerCase();
  },
});

builder.scalarType('DateTime', {
  description: 'An ISO 8601 UTC timestamp.',
  serialize: (v) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString()),
  parseValue: (v) => {
    const d = new Date(String(v));
    if (typeof v !== 'string' || Number.isNaN(d.getTime())) throw invalid('expected an ISO 8601 timestamp');
    return d;
  },
});

const money = (v: unknown) => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalid('expected a whole number of cents');
  return v;
};

builder.scalarType('Money', {
  description: 'An amount in cents: a whole number, exact up to 2^53 (not limited to 32 bits like Int).',
  serialize: (v) => money(typeof v === 'string' ? Number(v) : v),
  parseValue: money,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.INT) throw invalid('expected a whole number of cents');
    return money(Number(ast.value));
  },
});

builder.scalarType('JSON', {
  description: 'Free-form JSON.',
  serialize: (v) => v,
  parseValue: (v) => v,
});
