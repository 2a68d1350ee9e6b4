import dns from 'node:dns';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/**
 * The addresses a request this server makes on someone's say-so (an image URL, a feed URL) may not
 * reach, and the name lookup that refuses them: one rule for every such fetch.
 */

/** This machine's own addresses (a public one included), read once per process. */
let ownAddresses: Set<string> | undefined;
function isOwnAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  ownAddresses ??= new Set(
    Object.values(networkInterfaces())
      .flat()
      .flatMap((entry) =>
        entry && ipaddr.isValid(entry.address.split('%')[0]!) ? [normal(entry.address)] : [],
      ),
  );
  return ownAddresses.has(address.toNormalizedString());
}

const normal = (text: string) => {
  const parsed = ipaddr.parse(text.split('%')[0]!);
  return (
    parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
      ? (parsed as ipaddr.IPv6).toIPv4Address()
      : parsed
  ).toNormalizedString();
};

/** The IPv4 address an IPv6 address carries: mapped, compatible, NAT64 (64:ff9b::/96) or 6to4. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6052' || range === 'rfc6145') {
    return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4;
  }
  if (range === '6to4') return ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4;
  // IPv4-compatible (::a.b.c.d, deprecated but still routed to that IPv4 address by some stacks).
  if (bytes.slice(0, 12).every((byte) => byte === 0))
    return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4;
  return undefined;
}

/**
 * Whether a fetched URL may not reach this address: anything but a global unicast address (IANA's
 * special-purpose ranges as ipaddr.js knows them: loopback, private, link-local, carrier NAT,
 * multicast, reserved, documentation...), every IPv6 form that carries an IPv4 address (judged by
 * that address, and refused outright when it is not global), and this machine's own addresses.
 */
export function isPrivateAddress(text: string): boolean {
  const bare = text.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (!ipaddr.isValid(bare)) return true;
  const address = ipaddr.parse(bare);
  if (isOwnAddress(address)) return true;
  if (address.kind() === 'ipv4') return address.range() !== 'unicast';
  const v6 = address as ipaddr.IPv6;
  const carried = embeddedIPv4(v6);
  if (carried) return true;
  // Global unicast is 2000::/3; anything else (and the special ranges inside it) is not the internet.
  return v6.range() !== 'unicast' || !v6.match(ipaddr.IPv6.parse('2000::'), 3);
}

type LookupCallback = (error: Error | null, address?: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that resolves every address of a name and fails with `refusal()`
 * when any is forbidden, so a name pointing inside the network is refused at connection time (no
 * second lookup for the connection to differ from).
 */
export function guardedLookup(isForbidden: (address: string) => boolean, refusal: () => Error) {
  return ((hostname: string, options: dns.LookupOptions, callback: LookupCallback) =>
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error);
      if (addresses.some(({ address }) => isForbidden(address))) return callback(refusal());
      return options.all
        ? callback(null, addresses)
        : callback(null, addresses[0]!.address, addresses[0]!.family);
    })) as never;
}
