import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not target unless WEBHOOK_ALLOW_PRIVATE=1: loopback, private,
 * link-local (cloud metadata), carrier-grade NAT, unspecified, multicast and reserved ranges,
 * in IPv4 and IPv6 (IPv4-mapped IPv6 addresses are checked as IPv4).
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return isPrivateAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: refuse rather than guess
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The host of a URL as an address or name ([::1] → ::1). */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Why a webhook may not target `url` (a private address, or a name that resolves to one), or
 * undefined. Checked when a webhook is created and again at each delivery, on the address
 * actually connected to (a name may resolve differently later).
 */
export async function privateTargetProblem(url: string): Promise<string | undefined> {
  const host = hostOf(new URL(url));
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      // Not resolvable now (it may be later): each delivery checks the address it connects to.
      addresses = [];
    }
  }
  const blocked = addresses.find(isPrivateAddress);
  return blocked === undefined
    ? undefined
    : `Targets on loopback or private addresses (${blocked}) are refused unless WEBHOOK_ALLOW_PRIVATE=1`;
}
