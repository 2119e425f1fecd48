/** What an orchctl subcommand reads and writes besides its arguments; injected so tests run it in process. */
export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The whole of standard input (read once, when `-f -` asks for it). */
  readonly readStdin: () => Promise<string>;
  /** The directory relative file names start from. */
  readonly cwd: string;
  /** Environment variables (the client configuration variable); default none. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The home directory (the default client configuration file); default none. */
  readonly homeDir?: string;
}

/** One subcommand of orchctl: its name, one-line summary and entry point (resolves to the exit code). */
export interface Subcommand {
  readonly name: string;
  readonly summary: string;
  run(argv: readonly string[], io: CommandIo): Promise<number>;
}
