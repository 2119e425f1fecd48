/**
 * `orchctl convert`: kubectl-convert's command line and behaviour over Orch's conversions.
 * Reads `-f` sources, converts every object to `--output-version` (or its kind's preferred
 * version) and prints one object, or a List when several were read or the input was a directory
 * or standard input. Objects whose kind has no such version are reported on standard error and
 * left out, as kubectl-convert does; decoding problems, refused conversions and a command with no
 * object converted end with `error: …` and exit code 1. There is no server-side mode:
 * `--local=false` is refused.
 */
import { apiDomain, isApiDomainName, ORCH_DOMAIN } from '../../apis/api-domain.js';
import { conversionRegistry } from '../../apis/conversion/conversion-registry.js';
import {
  ConversionError,
  type GroupVersion,
  KindNotRegisteredError,
  NotSuitableForTargetError,
  parseGroupVersion,
} from '../../apis/conversion/conversion-types.js';
import { clientApiDomainFlag } from '../flags/client-api-domain-flag.js';
import { FlagError } from '../flags/errors.js';
import { parseFlags } from '../flags/flag-parser.js';
import { boolFlag, stringFlag, stringListFlag } from '../flags/flag-spec.js';
import { formatHelp } from '../flags/flag-usage.js';
import type { CommandIo, Subcommand } from './command-io.js';
import { readManifests } from './manifest-input.js';
import { asList, formatObject, OUTPUT_FORMATS, type OutputFormat } from './manifest-output.js';

/** The flags of `orchctl convert`, named as kubectl-convert's. */
export const CONVERT_FLAGS = {
  filename: stringListFlag({
    name: 'filename',
    shorthand: 'f',
    usage: 'Filename, directory, or - for standard input, of the files to convert.',
  }),
  recursive: boolFlag({
    name: 'recursive',
    shorthand: 'R',
    usage: 'Process the directory used in -f, --filename recursively.',
  }),
  outputVersion: stringFlag({
    name: 'output-version',
    usage: "Output the formatted object with the given group version (for ex: 'apps/v1').",
  }),
  output: stringFlag({
    name: 'output',
    shorthand: 'o',
    usage: `Output format. One of: (${OUTPUT_FORMATS.join(', ')}).`,
    default: 'yaml',
  }),
  local: boolFlag({
    name: 'local',
    usage:
      'If true, convert will NOT try to contact api-server but run locally. Only true is supported: there is no server-side mode.',
    default: true,
  }),
  apiDomain: clientApiDomainFlag(),
};

const DESCRIPTION = `Convert config files between different API versions. Both YAML and JSON formats are accepted.

The command takes filename, directory, or standard input, and converts it into the version given by
--output-version; without it, each object goes to its kind's preferred version. Versions removed from
the API convert to their replacements. The output goes to standard output, in YAML unless -o json.

Examples:
  # Convert 'ingress.yaml' to the networking v1 Ingress and print it
  orchctl convert -f ingress.yaml --output-version ${ORCH_DOMAIN.group('networking')}/v1

  # Convert every manifest under a directory, as JSON
  orchctl convert -f ./manifests -R -o json`;

function fail(io: CommandIo, message: string): number {
  io.stderr(`error: ${message}\n`);
  return 1;
}

/** Runs `orchctl convert` with `argv` (after the subcommand name); resolves to the exit code. */
export async function runConvert(argv: readonly string[], io: CommandIo): Promise<number> {
  let parsed: ReturnType<typeof parseFlags<typeof CONVERT_FLAGS>>;
  try {
    parsed = parseFlags(CONVERT_FLAGS, argv);
  } catch (e) {
    if (e instanceof FlagError) {
      io.stderr(`error: ${e.message}\nSee 'orchctl convert --help' for usage.\n`);
      return 1;
    }
    throw e;
  }
  if (parsed.help) {
    io.stdout(`${formatHelp({ command: 'orchctl convert', description: DESCRIPTION, table: CONVERT_FLAGS })}`);
    return 0;
  }
  const flags = parsed.values;
  if (flags.filename.length === 0) return fail(io, 'must specify one of -f and -k');
  if (!flags.local) {
    return fail(io, 'orchctl convert has no server-side mode: --local=false is not supported');
  }
  if (!(OUTPUT_FORMATS as readonly string[]).includes(flags.output)) {
    return fail(
      io,
      `unable to match a printer suitable for the output format "${flags.output}", allowed formats are: ${OUTPUT_FORMATS.join(',')}`,
    );
  }
  if (!isApiDomainName(flags.apiDomain)) return fail(io, `unknown API domain "${flags.apiDomain}"`);

  const input = await readManifests(flags.filename, flags.recursive, io);
  if (input.errors.length > 0) {
    return fail(io, input.errors.length === 1 ? input.errors[0] : `[${input.errors.join(', ')}]`);
  }
  if (input.objects.length === 0) return fail(io, 'no objects passed to convert');

  let target: GroupVersion | undefined;
  try {
    target = flags.outputVersion === '' ? undefined : parseGroupVersion(flags.outputVersion);
  } catch (e) {
    if (e instanceof ConversionError) return fail(io, e.message);
    throw e;
  }
  const registry = conversionRegistry(apiDomain(flags.apiDomain));
  const converted: Record<string, unknown>[] = [];
  for (const { source, object } of input.objects) {
    try {
      converted.push(registry.convert(object, target));
    } catch (e) {
      if (e instanceof NotSuitableForTargetError) {
        io.stderr(`${e.message}\n`);
        continue;
      }
      if (e instanceof ConversionError) {
        const decoding = e instanceof KindNotRegisteredError ? `unable to decode "${source}": ` : '';
        return fail(io, `${decoding}${e.message}`);
      }
      throw e;
    }
  }
  if (converted.length === 0) return fail(io, 'no object could be converted to the output version');
  const format = flags.output as OutputFormat;
  const single = converted.length === 1 && input.singleItemImplied;
  io.stdout(formatObject(single ? converted[0] : asList(converted), format));
  return 0;
}

/** `convert` in orchctl's subcommand table. */
export const convertSubcommand: Subcommand = {
  name: 'convert',
  summary: 'Convert config files between different API versions',
  run: runConvert,
};
