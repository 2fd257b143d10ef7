/**
 * A TCP proxy to PostgreSQL as a process of its own (`test/support/tcp-proxy.ts`), so that the
 * database traffic of an instance never waits behind the soak's own work (sending the load,
 * receiving webhooks). Started by ProxyProcess: it reports its port, then obeys `cut` and
 * `restore` messages, and ends with its parent.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { TcpProxy } from '../../test/support/tcp-proxy.ts';

type Command = 'cut' | 'restore';

/** The parent's handle on a proxy process. */
export class ProxyProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<ProxyProcess> {
    const child = fork(fileURLToPath(import.meta.url), [targetHost, String(targetPort)], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    const [message] = (await once(child, 'message')) as [{ port: number }];
    return new ProxyProcess(child, message.port);
  }

  private async command(command: Command) {
    const done = once(this.child, 'message');
    this.child.send(command);
    await done;
  }

  /** Drops every connection and refuses new ones. */
  cut() {
    return this.command('cut');
  }

  /** Listens again, on the same port. */
  restore() {
    return this.command('restore');
  }

  async stop() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    await exited;
  }
}

if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  const [host, port] = process.argv.slice(2);
  const proxy = new TcpProxy(host!, Number(port));
  process.send({ port: await proxy.start() });
  process.on('message', async (command: Command) => {
    if (command === 'cut') await proxy.cut();
    else await proxy.restore();
    process.send!({ done: command });
  });
  // The soak ended, however it ended: so does the proxy.
  process.on('disconnect', () => process.exit(0));
}
