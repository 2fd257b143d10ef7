import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL), for simulating an outage without stopping
 * the server that other test files share: `cut()` drops every connection and stops listening
 * (new connections are refused), `restore()` listens again on the same port. `hold()` stops
 * passing on (and reading) what the server sends, as a client that stopped reading; `release()`
 * goes on.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly downstream = new Map<Socket, Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    this.server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
      this.downstream.set(upstream, client);
      upstream.on('close', () => this.downstream.delete(upstream));
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await closed;
    this.server = undefined;
  }

  hold() {
    for (const [upstream, client] of this.downstream) {
      upstream.unpipe(client);
      upstream.pause();
    }
  }

  release() {
    for (const [upstream, client] of this.downstream) upstream.pipe(client);
  }

  async restore(): Promise<void> {
    await this.start();
  }

  stop(): Promise<void> {
    return this.cut();
  }
}
