import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Keyring } from '../domain/sealing.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

/**
 * Kysely's FileMigrationProvider, but importing from this module, so the migrations' TypeScript
 * goes through the same loader as the rest of the app (tsx, or Vite under vitest).
 */
class TypeScriptMigrationProvider implements MigrationProvider {
  constructor(private readonly context: MigrationContext) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts')).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const module = (await import(pathToFileURL(join(MIGRATIONS_DIR, file)).href)) as ContextMigration;
      // Migrations take the context as a second argument, so they never import app code.
      migrations[file.replace(/\.(ts|js)$/, '')] = {
        up: (db) => module.up(db, this.context.sealer),
        ...(module.down && { down: (db: Kysely<any>) => module.down!(db) }),
      };
    }
    return migrations;
  }
}

interface ContextMigration {
  up(db: Kysely<any>, sealer?: Sealer): Promise<void>;
  down?(db: Kysely<any>): Promise<void>;
}

type Sealer = Pick<Keyring, 'seal' | 'digest'>;

export interface MigrationContext {
  /**
   * Seals data that a migration moves out of the clear (2026-11-23T0102): the service's keyring.
   * Without it, a migration that finds such data refuses to run.
   */
  sealer?: Sealer;
}

/** Brings the schema up to date; throws with the failing migration's name. */
export function migrateToLatest(db: Kysely<any>, context: MigrationContext = {}): Promise<string[]> {
  return migrate(db, context, (m) => m.migrateToLatest());
}

/** Brings the schema to `name` exactly (tests of a migration start from the schema before it). */
export function migrateTo(db: Kysely<any>, name: string, context: MigrationContext = {}): Promise<string[]> {
  return migrate(db, context, (m) => m.migrateTo(name));
}

async function migrate(db: Kysely<any>, context: MigrationContext, run: (m: Migrator) => ReturnType<Migrator['migrateToLatest']>) {
  const migrator = new Migrator({ db, provider: new TypeScriptMigrationProvider(context) });
  const { error, results } = await run(migrator);
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const where = failed ? ` in ${failed.migrationName}` : '';
    throw new Error(`migration failed${where}: ${(error as Error).message ?? String(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
