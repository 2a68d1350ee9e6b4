import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';

/**
 * A setting that lists addresses: IPv4 or IPv6 addresses, CIDR ranges (`10.0.0.0/8`,
 * `2001:db8::/32`) and proxy-addr's names `loopback`, `linklocal` and `uniquelocal`, separated by
 * commas. Used for the proxies whose `X-Forwarded-For` is believed and for the addresses the rate
 * limits leave alone.
 */
export function addressList(setting: string): string[] {
  return setting
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Whether an address is in a list; a malformed list throws (settings are checked at start-up). */
export function addressMatcher(setting: string): (address: string) => boolean {
  const list = addressList(setting);
  if (list.length === 0) return () => false;
  const contains = proxyAddr.compile(list);
  return (address) => {
    try {
      return contains(address, 0);
    } catch {
      return false;
    }
  };
}

/** The setting's reason to be refused, or null when every entry is an address, a range or a name. */
export function addressListProblem(setting: string): string | null {
  try {
    addressMatcher(setting);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The client as limits and counters see it. An IPv4 address is itself (also written as an
 * IPv4-mapped IPv6 address); an IPv6 client is its /64 network, since a home or phone connection
 * is handed a whole /64 and may pick any address in it.
 */
export function addressGroup(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

/**
 * The `X-Forwarded-For` a proxy sends on: what it was told, then the address that told it (the
 * socket's peer, as every proxy appends). The server behind trusts this proxy and, through
 * TRUSTED_PROXIES, the ones before it, and so finds the same client this server did.
 */
export function forwardedFor(request: {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}): string {
  return [request.headers['x-forwarded-for'], request.socket.remoteAddress].flat().filter(Boolean).join(', ');
}

/**
 * What Redis keys counting per address hold of it (rate limits, the click-out window, revealed
 * codes): a keyed digest of its group, never the address, so nothing in Redis gives a person's
 * address back after they are forgotten (IPv4 is small enough that a bare hash would).
 */
export function addressDigest(secret: string, address: string): string {
  return createHmac('sha256', secret)
    .update(`redis-address:${addressGroup(address)}`)
    .digest('base64url')
    .slice(0, 22);
}
