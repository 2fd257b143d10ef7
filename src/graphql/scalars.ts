import { GraphQLError, Kind } from 'graphql';
import { UUID_PATTERN } from '../domain/ids.ts';
import { builder } from './builder.ts';

const invalid = (message: string) => new GraphQLError(message, { extensions: { code: 'VALIDATION_FAILED' } });

builder.scalarType('UUID', {
  description: 'An id of a payment, payout, merchant or event: a UUID, the same as in the REST API.',
  serialize: (v) => String(v),
  parseValue: (v) => {
    if (typeof v !== 'string' || !UUID_PATTERN.test(v)) throw invalid('expected a UUID');
    return v.toLowerCase();
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || !UUID_PATTERN.test(ast.value)) throw invalid('expected a UUID');
    return ast.value.toLowerCase();
  },
});

builder.scalarType('DateTime', {
  description: 'An ISO 8601 UTC timestamp, e.g. `2026-11-22T10:15:30.000Z`.',
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
  description: 'An amount of South African rand in cents: a whole number, exact up to 2^53 (not limited to 32 bits like Int). R 123.45 is 12345.',
  serialize: (v) => money(typeof v === 'string' ? Number(v) : v),
  parseValue: money,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.INT) throw invalid('expected a whole number of cents');
    return money(Number(ast.value));
  },
});

builder.scalarType('JSON', {
  description: 'Free-form JSON: a payout\'s metadata as the merchant gave it, an event\'s data in the REST shape.',
  serialize: (v) => v,
  parseValue: (v) => v,
});
