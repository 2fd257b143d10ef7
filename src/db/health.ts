import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

const answers = statement<Record<string, never>, { '?column?': number }>('the database answers', 'select 1');

/** Resolves once the database has answered a trivial statement; rejects when it cannot be reached. */
export async function ping(db: DbOrTx): Promise<void> {
  await answers.run(db, {});
}
