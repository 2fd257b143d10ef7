import { once } from 'node:events';
import { join } from 'node:path';
import { type Child, OLD_SPACE_MIB, spawnServer } from '../processes.ts';
import { cpuSeconds, rssMiB } from '../rss.ts';
import { ProxyProcess } from './proxy.ts';

/** A stretch of time (ms since the epoch) during which some failures are expected. */
export interface Window {
  from: number;
  to: number;
}

/** One process of an instance, from its start to its end. */
export interface Incarnation {
  pid: number;
  startedAt: number;
  endedAt?: number;
  /** How it ended: `kill -9` (the soak's), `stopped` (SIGTERM at the end), or an exit nobody asked for. */
  end?: string;
  /** VmRSS every second, MiB. */
  rss: { at: number; mib: number }[];
  /** The kernel's high-water mark of its RSS (VmHWM), as last read: catches a peak between samples. */
  hwmMiB: number;
  /** CPU time it used (user and system), as last read. */
  cpuSeconds: number;
}


/**
 * One zarpay instance as production runs it (compiled, `node --max-old-space-size=160`), reaching
 * PostgreSQL through a TCP proxy of its own (a process of its own, bench/soak/proxy.ts) so that its
 * database connections can be cut while the other instance keeps its own. A restart keeps the port, as a supervisor restarting a unit would.
 */
export class Instance {
  readonly incarnations: Incarnation[] = [];
  /** Exits the soak did not cause: each fails the run. */
  readonly unexpectedExits: { at: number; how: string }[] = [];
  /** When this instance could not be reached because the soak killed it (until it answered again). */
  readonly killWindows: Window[] = [];
  /** When its database was cut (until `/readyz` answered 200 again), and when the proxy let connections through again. */
  readonly cutWindows: (Window & { restoredAt: number })[] = [];
  /** Time it was down after an exit nobody asked for (until it answered again). */
  readonly crashWindows: Window[] = [];
  private child: Child | undefined;
  private expectingExit = false;
  private restarting: Promise<void> | undefined;

  private constructor(
    readonly name: string,
    readonly url: string,
    private readonly proxy: ProxyProcess,
    private readonly env: Record<string, string>,
    private readonly logFile: string,
  ) {}

  /** Starts a proxy to `database` (its host and port) and an instance whose DATABASE_URL goes through it. */
  static async start(name: string, port: number, database: URL, env: Record<string, string>, workDir: string): Promise<Instance> {
    const proxy = await ProxyProcess.start(database.hostname, Number(database.port || 5432));
    const viaProxy = new URL(database);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const instanceEnv = { ...env, PORT: String(port), DATABASE_URL: viaProxy.toString(), DATA_DIR: join(workDir, name) };
    const instance = new Instance(name, `http://127.0.0.1:${port}`, proxy, instanceEnv, join(workDir, `${name}.log`));
    await instance.spawn();
    return instance;
  }

  get pid(): number | undefined {
    return this.child?.child.pid;
  }

  get logPath() {
    return this.logFile;
  }

  private async spawn() {
    const child = await spawnServer('build/src/main.js', this.env, this.logFile, [`--max-old-space-size=${OLD_SPACE_MIB}`]);
    this.child = child;
    const incarnation: Incarnation = { pid: child.child.pid!, startedAt: Date.now(), rss: [], hwmMiB: 0, cpuSeconds: 0 };
    this.incarnations.push(incarnation);
    child.child.once('exit', (code, signal) => {
      this.sample();
      incarnation.endedAt = Date.now();
      if (this.expectingExit) return;
      const how = signal ? `killed by ${signal}` : `exited with ${code}`;
      incarnation.end = how;
      this.unexpectedExits.push({ at: incarnation.endedAt, how });
      // Keep the soak going, as a supervisor would: the figures of the rest of the run still count.
      const down = incarnation.endedAt;
      this.restarting = this.spawn()
        .then(() => void this.crashWindows.push({ from: down, to: Date.now() }))
        .catch((e) => void this.unexpectedExits.push({ at: Date.now(), how: `could not restart: ${(e as Error).message}` }));
    });
  }

  /** Reads VmRSS, VmHWM and the CPU time of the running process into its incarnation. */
  sample() {
    const current = this.incarnations.at(-1);
    if (!current || current.endedAt !== undefined) return;
    const rss = rssMiB(current.pid);
    const hwm = rssMiB(current.pid, 'VmHWM');
    const cpu = cpuSeconds(current.pid);
    if (rss !== null) current.rss.push({ at: Date.now(), mib: rss });
    if (hwm !== null) current.hwmMiB = Math.max(current.hwmMiB, hwm);
    if (cpu !== null) current.cpuSeconds = cpu;
  }

  /** `kill -9`, then a new process on the same port; the window lasts until it answers `/healthz`. */
  async kill9AndRestart(): Promise<Window> {
    await this.restarting;
    const child = this.child!.child;
    this.sample();
    const from = Date.now();
    const closing = this.expectingExit;
    this.expectingExit = true;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    this.incarnations.at(-1)!.end = 'kill -9';
    this.expectingExit = closing;
    await this.spawn();
    const window = { from, to: Date.now() };
    this.killWindows.push(window);
    return window;
  }

  /**
   * Cuts every database connection of this instance (its proxy drops them and refuses new ones)
   * for `ms`, then lets them through again; the window lasts until `/readyz` answers 200.
   */
  async cutDatabase(ms: number): Promise<Window & { restoredAt: number }> {
    const from = Date.now();
    await this.proxy.cut();
    await new Promise((r) => setTimeout(r, ms));
    await this.proxy.restore();
    const restoredAt = Date.now();
    const deadline = restoredAt + 60_000;
    for (;;) {
      try {
        if ((await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(5_000) })).status === 200) break;
      } catch {
        // not answering yet
      }
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const window = { from, to: Date.now(), restoredAt };
    this.cutWindows.push(window);
    return window;
  }

  /** From now on an exit is expected (the run is ending): no restart. */
  closing() {
    this.expectingExit = true;
  }

  /** SIGTERM, as at the end of a deployment; then the proxy. */
  async stop() {
    await this.restarting;
    this.expectingExit = true;
    this.sample();
    const current = this.incarnations.at(-1);
    if (current && current.endedAt === undefined) current.end = 'stopped';
    await this.child?.stop();
    await this.proxy.stop();
  }
}
