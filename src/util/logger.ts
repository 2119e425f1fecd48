/** Minimal structured logger; the default discards everything. */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** One JSON line per entry on the given stream (stderr by default). */
export function jsonLogger(write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const emit = (level: string, msg: string, fields?: Record<string, unknown>) =>
    write(`${JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields })}\n`);
  return {
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
