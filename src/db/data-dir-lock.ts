import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../domain/errors.ts';

/**
 * One process per embedded database (CONTRACT §9). PGlite has no lock of its own: two processes
 * opening one data directory each keep their own copy of the database in memory and write over
 * each other's files, and what one of them committed (and told a merchant about) can be gone
 * after a restart. Every command that opens the embedded database takes this lock first.
 *
 * The lock is a file in DATA_DIR naming its holder: process id, host, the process's start time
 * and what it runs. A holder that is gone (killed with -9, the machine restarted) leaves the
 * file behind; the next opener on the same host finds its process dead and takes the lock at
 * once. A lease that the holder renews (as proper-lockfile does) cannot be the rule: PGlite runs
 * in the process's own thread, so a long statement or migration can stall the renewal past a
 * short lease, and a restart after a crash would wait the lease out. Only a holder on another
 * host (a new container on the same volume, a network share), whose process cannot be looked
 * at, is judged by the renewal: the holder touches the file every 10 s, and one left untouched
 * for a minute is taken over.
 */
export const LOCK_FILE = 'zarpay.lock';
const RENEW_EVERY_MS = 10_000;
const FOREIGN_STALE_MS = 60_000;

interface Holder {
  pid: number;
  host: string;
  /** What the holder runs, for the refusal: `npm start`, `zarpay migrate`… */
  command: string;
  since: string;
  /** The kernel's boot and the process's start (Linux): a recycled pid is not the holder. */
  boot?: string | undefined;
  started?: string | undefined;
}

/** Another live process holds DATA_DIR: refused, naming the directory and that process. */
export class DataDirBusy extends AppError {
  constructor(
    readonly dir: string,
    readonly holder: Holder,
  ) {
    const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
    const elsewhere = where ? `; if it no longer runs, the lock is taken over ${FOREIGN_STALE_MS / 1000} s after it stopped` : '';
    super(
      'SERVICE_UNAVAILABLE',
      `the embedded database in ${dir} is in use by process ${holder.pid}${where} (${holder.command}, since ${holder.since}): ` +
        `one process per DATA_DIR; stop it first, or use the running service${elsewhere}`,
    );
  }
}

export interface DataDirLock {
  release(): void;
}

/** Locks held by this process, by file: a recorded pid equal to ours is only ours if listed here. */
const held = new Set<string>();

/** Takes DATA_DIR for this process, or throws DataDirBusy naming the live process that has it. */
export function lockDataDir(dir: string, command: string): DataDirLock {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const mine: Holder = { pid: process.pid, host: hostname(), command, since: new Date().toISOString(), boot: bootId(), started: procStat(process.pid)?.started };
  const text = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (create(file, text)) {
      held.add(file);
      const renewal = setInterval(() => {
        if (read(file) !== text) return;
        try {
          utimesSync(file, new Date(), new Date());
        } catch {
          // the next renewal tries again
        }
      }, RENEW_EVERY_MS).unref();
      const releaseOnExit = () => release();
      const release = () => {
        clearInterval(renewal);
        process.off('exit', releaseOnExit);
        if (!held.delete(file)) return;
        if (read(file) === text) unlinkQuietly(file);
      };
      // A process that exits without closing the database (process.exit) still leaves DATA_DIR free.
      process.on('exit', releaseOnExit);
      return { release };
    }
    const found = read(file);
    if (found === undefined) continue; // released meanwhile
    const holder = parse(found);
    if (holder && alive(holder, file)) throw new DataDirBusy(dir, holder);
    removeIfStill(file, found);
  }
  throw new Error(`could not take the lock ${file}: it keeps changing, or cannot be removed`);
}

/** Creates the lock file with `text`, or returns false if it exists. */
function create(file: string, text: string): boolean {
  // Written whole under another name, then linked into place: the lock file never exists
  // half-written, and link() fails if the name is taken, atomically.
  const temp = `${file}.${randomUUID()}`;
  writeFileSync(temp, text);
  try {
    linkSync(temp, file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(String(code))) throw e;
  } finally {
    unlinkQuietly(temp);
  }
  // A file system without hard links: exclusive creation instead.
  try {
    writeFileSync(file, text, { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** Whether the recorded holder may still be running; on another host, whether it renewed the lock lately. */
function alive(holder: Holder, file: string): boolean {
  if (holder.host !== hostname()) {
    try {
      return Date.now() - statSync(file).mtimeMs < FOREIGN_STALE_MS;
    } catch {
      return false;
    }
  }
  if (holder.pid === process.pid) return held.has(file);
  try {
    process.kill(holder.pid, 0);
  } catch (e) {
    // EPERM: it exists, under another user.
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  if (holder.boot && bootId() && holder.boot !== bootId()) return false;
  const stat = procStat(holder.pid);
  // A zombie has ended (killed, not yet reaped by its parent): it holds no files.
  if (stat?.state === 'Z' || stat?.state === 'X') return false;
  return !(holder.started && stat?.started && holder.started !== stat.started);
}

/**
 * Deletes a stale lock, unless another opener replaced it since it was read: the file is moved
 * aside first and put back if it is not the one judged stale.
 */
function removeIfStill(file: string, judged: string) {
  const aside = `${file}.${randomUUID()}`;
  try {
    renameSync(file, aside);
  } catch {
    return;
  }
  if (read(aside) !== judged) {
    try {
      linkSync(aside, file);
    } catch {
      // A third opener took the name in between: it holds the lock now.
    }
  }
  unlinkQuietly(aside);
}

function parse(text: string): Holder | undefined {
  try {
    const h = JSON.parse(text) as Holder;
    return Number.isInteger(h.pid) && h.pid > 0 && typeof h.host === 'string' ? h : undefined;
  } catch {
    return undefined;
  }
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function unlinkQuietly(file: string) {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** The kernel's boot id (Linux); undefined elsewhere. */
function bootId(): string | undefined {
  return read('/proc/sys/kernel/random/boot_id')?.trim();
}

/**
 * A process's state and when it started, in clock ticks since boot (Linux: fields 3 and 22 of
 * /proc/PID/stat); undefined elsewhere.
 */
function procStat(pid: number): { state: string; started: string } | undefined {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // The command name (field 2) may hold spaces and parentheses: count from its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, started: fields[19]! };
}
