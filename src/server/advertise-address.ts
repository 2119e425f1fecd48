import { networkInterfaces } from 'node:os';
import { isLinkLocalUnicast, isLoopback, isUnspecified, parseIP } from '../apis/core/ip-address.js';
import { validateNonSpecialIP } from '../apis/core/non-special-ip.js';
import { formatFieldError } from '../apis/meta/field-error.js';
import type { Logger } from '../util/logger.js';

/**
 * The address this server advertises (kube-apiserver's `--advertise-address` default): the flag,
 * else the bind address unless it is unspecified or loopback, else the host's first
 * non-loopback, non-link-local interface address (IPv4 first, as kube's ChooseHostInterface
 * prefers), else the bind address.
 */
export function resolveAdvertiseAddress(advertiseAddress: string | undefined, bindAddress: string): string {
  if (advertiseAddress) return advertiseAddress;
  const bind = parseIP(bindAddress);
  if (bind && !isUnspecified(bind) && !isLoopback(bind)) return bindAddress;
  const usable = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => {
      const ip = parseIP(a.address);
      return !a.internal && ip !== undefined && !isLoopback(ip) && !isLinkLocalUnicast(ip) && !isUnspecified(ip);
    });
  return (usable.find((a) => a.family === 'IPv4') ?? usable[0])?.address ?? bindAddress;
}

/**
 * The advertised address when Endpoints may name it; undefined (with a warning) for addresses
 * Endpoints refuse (loopback, link-local, unspecified), which kube-apiserver would fail to write.
 */
export function endpointAddressOf(address: string | undefined, logger: Logger): string | undefined {
  if (!address) return undefined;
  const errs = validateNonSpecialIP(address, 'advertise-address');
  if (errs.length === 0) return address;
  logger.warn('the advertised address cannot be an endpoint of the kubernetes service; its endpoints are left out', {
    problems: errs.map(formatFieldError),
  });
  return undefined;
}
