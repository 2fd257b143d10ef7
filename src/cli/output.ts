import { Option } from 'commander';
import { type FlagNames, graphql, resolveTarget } from './client.ts';
import type { OutputFormat } from './table.ts';

/** What every command shares: the operator call and how results are printed. */

export const print = (value: unknown) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');

export async function op<T = any>(query: string, variables: Record<string, unknown> = {}, flags: FlagNames = {}): Promise<T> {
  return graphql<T>(resolveTarget(), query, variables, flags);
}

export const formatOption = () =>
  new Option('--format <format>', 'json, table, or auto: a table on a terminal, JSON otherwise')
    .choices(['auto', 'json', 'table'] satisfies OutputFormat[])
    .default('auto');
