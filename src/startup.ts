import { ConfigError } from './config.ts';

/**
 * What went wrong at start-up, in one line an operator can act on: the common causes named in
 * plain words (a busy port, a database that does not answer, a bad setting), anything else as its
 * message. Never a stack trace, never a password from DATABASE_URL.
 */
export function startupFailure(error: unknown, where: { host: string; port: number; databaseUrl: string | undefined; dataDir: string }): string {
  const e = error as NodeJS.ErrnoException & { cause?: unknown };
  const code = e?.code ?? (e?.cause as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof ConfigError) return error.message;
  if (code === 'EADDRINUSE') return `port ${where.port} on ${where.host} is already in use (another zarpay?): stop it or set PORT to a free port`;
  if (code === 'EACCES' && /listen/.test(String(e?.message))) return `not allowed to listen on port ${where.port}: choose a PORT above 1023`;
  const database = where.databaseUrl ? `the database at ${safeUrl(where.databaseUrl)}` : `the embedded database in ${where.dataDir}/pg`;
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET'].includes(String(code)) || /timeout exceeded when trying to connect|Connection terminated/i.test(String(e?.message))) {
    return `cannot reach ${database} (${code ?? 'connection timed out'}): is PostgreSQL running, and is DATABASE_URL right?`;
  }
  // PostgreSQL's own refusals: a wrong password, a missing database or role.
  if (code === '28P01' || code === '28000') return `${database} refused the login: check the user and password in DATABASE_URL`;
  if (code === '3D000') return `${database} does not exist: create it, or fix the name in DATABASE_URL`;
  const message = e instanceof Error ? e.message : String(error);
  return message.split('\n')[0]!;
}

/** A connection string without its password. */
export function safeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'DATABASE_URL (not a valid URL)';
  }
}
