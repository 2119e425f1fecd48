/** What the balancer configuration needs. */
export interface BalancerConfigOptions {
  /** Port the balancer listens on (127.0.0.1). */
  readonly port: number;
  /** The API servers: name and secure port on 127.0.0.1. */
  readonly backends: readonly { readonly name: string; readonly port: number }[];
  /** Unix socket for haproxy's runtime API (`show servers state`). */
  readonly statsSocket: string;
  /**
   * Health-check interval (default 1 s); a backend is out after 3 failed checks, back after 2
   * passes. Three keep a short etcd leader election (every replica fails `/readyz` for about a
   * second) from emptying the rotation; a dead replica's refused connections are redispatched.
   */
  readonly checkIntervalMs?: number;
}

/**
 * An haproxy configuration: TCP passthrough (TLS ends at each API server, so client certificates
 * reach it), round-robin over the API servers, each checked with `GET /readyz` over TLS (status
 * 200 required). Connections to a failed server are redispatched; established ones are not moved.
 */
export function balancerConfig(options: BalancerConfigOptions): string {
  const inter = options.checkIntervalMs ?? 1000;
  const servers = options.backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port}`);
  return [
    'global',
    '  maxconn 4096',
    `  stats socket ${options.statsSocket} mode 600 level admin`,
    'defaults',
    '  mode tcp',
    '  timeout connect 2s',
    '  timeout client 1h',
    '  timeout server 1h',
    '  timeout check 2s',
    '  retries 2',
    '  option redispatch',
    'frontend api',
    `  bind 127.0.0.1:${options.port}`,
    '  default_backend apiservers',
    'backend apiservers',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /readyz',
    '  http-check expect status 200',
    // The check speaks TLS to the server; the serving certificate is the cluster's own.
    `  default-server check check-ssl verify none inter ${inter}ms fall 3 rise 2 on-marked-down shutdown-sessions`,
    ...servers,
    '',
  ].join('\n');
}
