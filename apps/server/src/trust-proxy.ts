import { isIP } from 'node:net';

/*
 * TRUST_PROXY (docs/keys-and-limits.md#the-client-address): which peers are proxies whose
 * X-Forwarded-For names the client, in two of Express's forms: a number of hops, or a list of
 * proxy addresses (addresses, CIDR ranges, or Express's names loopback, linklocal, uniquelocal).
 * `true` (every peer a proxy) is refused: the client would choose its own address, and with it
 * the budget it is counted against.
 */

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function validEntry(entry: string): boolean {
  if (NAMES.has(entry) || isIP(entry) !== 0) return true;
  const m = /^([^/]+)\/(\d{1,3})$/.exec(entry);
  if (!m) return false;
  const family = isIP(m[1]!);
  return family !== 0 && Number(m[2]) <= (family === 4 ? 32 : 128);
}

/** Express's `trust proxy` setting of a TRUST_PROXY value; throws with the reason when it is not one. */
export function trustProxySetting(value: string): number | string[] {
  const raw = value.trim();
  if (raw === 'true')
    throw new Error(
      'TRUST_PROXY=true would take the client address from whatever X-Forwarded-For says, so any client could choose the address its requests are counted as; set the number of proxies in front of the server (e.g. 1) or their addresses (e.g. loopback or 10.0.0.0/8)',
    );
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((e) => e.trim());
  const wrong = entries.find((e) => !validEntry(e));
  if (wrong !== undefined)
    throw new Error(
      `TRUST_PROXY must be a number of hops or a comma-separated list of proxy addresses (addresses, CIDR ranges, loopback, linklocal, uniquelocal); "${wrong}" is neither`,
    );
  return entries;
}
