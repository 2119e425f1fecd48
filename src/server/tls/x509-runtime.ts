import { createRequire } from 'node:module';
import type * as X509 from '@peculiar/x509';

/** The @peculiar/x509 module's exports. */
export type X509Module = typeof X509;

const requireModule = createRequire(import.meta.url);

/**
 * @peculiar/x509, loaded on first use: loading it (with its ASN.1 and dependency-injection
 * libraries) takes a noticeable share of start-up, and most starts never issue or parse a
 * certificate with it (existing certificates are checked with node:crypto). Node's module cache
 * keeps the one instance. The library resolves its algorithm providers through tsyringe, which
 * throws unless `reflect-metadata` was evaluated first: code here reaches the library only through
 * this function, which loads the polyfill before it.
 */
export function x509(): X509Module {
  requireModule('reflect-metadata');
  return requireModule('@peculiar/x509') as X509Module;
}
