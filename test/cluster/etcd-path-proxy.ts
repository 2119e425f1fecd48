import { createConnection, createServer, type Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1 in front of the etcd members: one replica's own path to etcd. */
export interface EtcdPathProxy {
  /** `http://127.0.0.1:<port>`: the replica's `--etcd-servers`. */
  readonly url: string;
  /** The etcd client URLs forwarded to (set once the cluster's ports are known). */
  setTargets(urls: readonly string[]): void;
  /** Stops forwarding: open connections are reset and new ones closed at once. */
  cut(): void;
  /** Forwards again. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * Starts the proxy. Each accepted connection is forwarded to the first target that accepts it,
 * starting from a rotating index (a killed member is skipped), bytes copied both ways.
 */
export async function startEtcdPathProxy(): Promise<EtcdPathProxy> {
  let targets: { host: string; port: number }[] = [];
  let next = 0;
  let forwarding = true;
  const open = new Set<Socket>();
  const track = (s: Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  };
  const connectTo = (client: Socket, tried: number) => {
    if (!forwarding || tried >= targets.length) {
      client.destroy();
      return;
    }
    const target = targets[(next + tried) % targets.length] as { host: string; port: number };
    const upstream = createConnection(target);
    track(upstream);
    let connected = false;
    upstream.on('error', () => {
      upstream.destroy();
      // Refused before connecting (a stopped member): try the next one.
      if (!connected && !client.destroyed) connectTo(client, tried + 1);
    });
    upstream.once('connect', () => {
      connected = true;
      client.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  };
  const server = createServer({ pauseOnConnect: true }, (client) => {
    track(client);
    client.on('error', () => client.destroy());
    if (!forwarding || targets.length === 0) {
      client.destroy();
      return;
    }
    next = (next + 1) % targets.length;
    connectTo(client, 0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    setTargets(urls) {
      targets = urls.map((u) => {
        const parsed = new URL(u);
        return { host: parsed.hostname, port: Number(parsed.port) };
      });
    },
    cut() {
      forwarding = false;
      for (const s of open) s.resetAndDestroy();
    },
    restore() {
      forwarding = true;
    },
    close() {
      forwarding = false;
      for (const s of open) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
