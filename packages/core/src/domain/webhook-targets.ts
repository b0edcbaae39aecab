import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not target unless WEBHOOK_ALLOW_PRIVATE=1: loopback, private,
 * link-local (cloud metadata), carrier-grade NAT, unspecified, multicast and reserved ranges,
 * in IPv4 and IPv6, site-local fec0::/10, the NAT64 prefixes and Teredo. An IPv6 address that
 * carries an IPv4 one (IPv4-mapped ::ffff:0:0/96, IPv4-translated ::ffff:0:0:0/96,
 * IPv4-compatible ::/96, 6to4 2002::/16) is checked as that IPv4 address too
 * (docs/changes-and-webhooks.md#webhooks--key).
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
  ['fec0::', 10],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2001::', 32],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

/** The 16 bytes of a valid IPv6 address (a dotted IPv4 tail included). */
export function ipv6Bytes(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const words = [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/** The IPv4 address an IPv6 address carries (mapped, translated, compatible, 6to4), if any. */
function embeddedIpv4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  const v4 = (at: number) => b.slice(at, at + 4).join('.');
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2); // 6to4 2002::/16
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12); // ::ffff:a.b.c.d
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return v4(12); // ::ffff:0:a.b.c.d
  if (zero(0, 12)) return v4(12); // ::a.b.c.d (:: and ::1 among them)
  return undefined;
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: refuse rather than guess
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  const v4 = embeddedIpv4(address);
  return (v4 !== undefined && PRIVATE.check(v4, 'ipv4')) || PRIVATE.check(address, 'ipv6');
}

/** The host of a URL as an address or name ([::1] → ::1). */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The one URL parser (docs/changes-and-webhooks.md#webhooks--key): a webhook URL is valid only when the
 * WHATWG URL parser — the one every send uses — accepts it as http or https, beside the URL rule every
 * stored URL follows (schemas/url-rule.ts). Why `s` is not such a URL, or undefined.
 */
export function webhookUrlProblem(s: string): string | undefined {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return 'Invalid URL: the URL parser refuses it (look at its host, port and percent-escapes)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'Invalid URL: expected an HTTP or HTTPS URL';
  return undefined;
}

const refused = (what = '') =>
  `Targets on loopback or private addresses${what} are refused unless WEBHOOK_ALLOW_PRIVATE=1`;

/**
 * Why a webhook may not target `url` (a private address, or a name that resolves to one), or
 * undefined. Checked when a webhook is created or edited and again at each delivery, on the address
 * actually connected to (a name may resolve differently later). A name's refusal does not tell the
 * address it resolves to.
 */
export async function privateTargetProblem(url: string): Promise<string | undefined> {
  const invalid = webhookUrlProblem(url);
  if (invalid) return invalid;
  const host = hostOf(new URL(url));
  if (isIP(host)) return isPrivateAddress(host) ? refused(` (${host})`) : undefined;
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    // Not resolvable now (it may be later): each delivery checks the address it connects to.
    addresses = [];
  }
  return addresses.some(isPrivateAddress)
    ? `${refused()}: the host ${host} resolves to a loopback or private address`
    : undefined;
}
