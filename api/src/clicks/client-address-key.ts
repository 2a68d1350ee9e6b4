import { createHmac } from 'node:crypto';
import { addressGroup } from '../infrastructure/http/client-address.js';

/**
 * What a click keeps of its client address: a keyed digest of the address's group (an IPv6
 * address by its /64, as the rate limits count it), enough to tell whether a later request came
 * from the same place and nothing that gives the address back (IPv4 is small enough that a bare
 * hash would).
 */
export function clientAddressKey(secret: string, address: string): string {
  return createHmac('sha256', secret)
    .update(`client-address:${addressGroup(address)}`)
    .digest('base64url');
}
