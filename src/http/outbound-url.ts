import dns from 'node:dns';
import net from 'node:net';

/**
 * Outbound URLs an admin enters (the email plugin's SMTP and API URLs, the OAuth endpoint overrides)
 * must not reach the service's own network: loopback, private, link-local, unspecified, CGNAT or cloud
 * metadata addresses. Host names are judged by every address they resolve to. ALLOW_PRIVATE_OUTBOUND
 * (development and tests) turns the rule off; the callers decide that, not this module.
 */
export const OUTBOUND_MESSAGES = {
  privateAddress: 'must not point to a loopback, private, link-local or metadata address',
  unresolvable: 'names a host that could not be resolved',
  invalid: 'must be a valid URL',
} as const;

/** A connection refused because its host resolved to a non-public address. */
export class OutboundAddressError extends Error {
  readonly code = 'EOUTBOUNDPRIVATE';
  constructor() {
    super('outbound address is not public');
    this.name = 'OutboundAddressError';
  }
}

const BLOCKED = new net.BlockList();
const BLOCKED_RANGES: Array<[string, number, 'ipv4']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", 0.0.0.0 (reaches the local host on Linux)
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, 169.254.169.254 metadata
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments (192.0.0.192: Oracle metadata)
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'], // benchmarking, used inside some clouds
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, 255.255.255.255 broadcast
];
for (const [address, prefix, family] of BLOCKED_RANGES) BLOCKED.addSubnet(address, prefix, family);

const isPublicIPv4 = (address: string) => !BLOCKED.check(address, 'ipv4');

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const octets = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((octets[0] << 8) | octets[1]).toString(16)}:${((octets[2] << 8) | octets[3]).toString(16)}`;
  }
  const [head, tail, ...rest] = text.split('::');
  if (rest.length > 0) return null;
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

/**
 * Whether an IPv6 address (its eight groups) may be reached. Only global unicast (2000::/3) is public: that
 * leaves out loopback, unspecified, unique local (fd00:ec2::254, AWS metadata), link-local, site-local,
 * multicast, the deprecated IPv4-compatible form (::a.b.c.d), IPv4-translated addresses (::ffff:0:a.b.c.d)
 * and the local-use NAT64 prefix 64:ff9b:1::/48 (an operator's own translator: where the IPv4 sits depends
 * on a prefix length unknown here, so none of it is trusted). Forms that reach an IPv4 address through the
 * host or a gateway are judged by that IPv4 address: IPv4-mapped (::ffff:a.b.c.d), the well-known NAT64
 * prefix (64:ff9b::a.b.c.d, RFC 6052) and 6to4 (2002:aabb:ccdd::).
 */
function isPublicIPv6(g: number[]): boolean {
  const quad = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return isPublicIPv4(quad(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return isPublicIPv4(quad(g[6], g[7]));
  if (g[0] === 0x2002) return isPublicIPv4(quad(g[1], g[2]));
  return (g[0] & 0xe000) === 0x2000;
}

/** True when an IP address may be reached from here: a public unicast address. Anything else (names too) is false. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 4) return isPublicIPv4(bare);
  if (family !== 6) return false;
  const groups = ipv6Groups(bare);
  return groups !== null && isPublicIPv6(groups);
}

/**
 * The host names a URL's host may stand for, without brackets: as written, and as a web URL's parser
 * reads it. `smtp:` URLs keep their host opaque (`smtp://2130706433` is not rewritten), while the
 * system resolver and the WHATWG parser both read `2130706433`, `0x7f.1` or `%31%32%37.0.0.1` as
 * 127.0.0.1: both readings are judged.
 */
function hostReadings(url: URL): string[] {
  // Host names compare without case (an smtp: URL keeps the case it was typed in).
  const raw = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let normalised = raw;
  try {
    normalised = new URL(`http://${url.host}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    // Not a valid web host (e.g. an opaque host with characters http refuses): judged as written.
  }
  return [...new Set([normalised, raw])];
}

type Lookup = (hostname: string) => Promise<Array<{ address: string }>>;
const systemLookup: Lookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * Why an outbound URL is refused, or null when every address its host stands for is public. Names are
 * resolved (every address they resolve to must be public); a name that does not resolve is refused.
 */
export async function outboundUrlRefusal(value: string, lookup: Lookup = systemLookup): Promise<string | null> {
  if (!URL.canParse(value)) return OUTBOUND_MESSAGES.invalid;
  for (const host of hostReadings(new URL(value))) {
    if (net.isIP(host)) {
      if (!isPublicAddress(host)) return OUTBOUND_MESSAGES.privateAddress;
      continue;
    }
    let addresses: Array<{ address: string }>;
    try {
      addresses = await lookup(host);
    } catch {
      return OUTBOUND_MESSAGES.unresolvable;
    }
    if (addresses.length === 0) return OUTBOUND_MESSAGES.unresolvable;
    if (addresses.some(({ address }) => !isPublicAddress(address))) return OUTBOUND_MESSAGES.privateAddress;
  }
  return null;
}

/** A `lookup` for http(s).request that fails the connection when a name resolves to any non-public address. */
const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    if (addresses.length === 0 || addresses.some(({ address }) => !isPublicAddress(address))) return callback(new OutboundAddressError(), '');
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

/**
 * Options for http(s).request to `url` that reach only public addresses, judged at connection time
 * (the address actually dialled, so a name re-pointed after it was saved cannot slip through).
 * Throws OutboundAddressError for a literal non-public address: Node dials literals without a lookup.
 */
export function publicOnlyConnection(url: URL): { lookup: net.LookupFunction } {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !isPublicAddress(host)) throw new OutboundAddressError();
  return { lookup: publicOnlyLookup };
}

/**
 * A TCP connection to `host:port` that reaches only a public address: the name is resolved once, every address
 * it resolves to is judged, and the socket dials one of those checked addresses (never resolving again), so a
 * name re-pointed at a private host after it was saved (DNS rebinding) gains nothing. For clients that resolve
 * names themselves (nodemailer) and accept a connected socket instead.
 */
export function connectPublicOnly(host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare) && !isPublicAddress(bare)) return Promise.reject(new OutboundAddressError());
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: bare, port, lookup: publicOnlyLookup, autoSelectFamily: true, timeout: timeoutMs });
    const fail = (err: Error) => {
      socket.destroy();
      reject(err);
    };
    const timedOut = () => fail(Object.assign(new Error('connection timed out'), { code: 'ETIMEDOUT' }));
    socket.once('error', fail);
    socket.once('timeout', timedOut);
    socket.once('connect', () => {
      // The client that takes the socket sets its own handlers and timeouts from here on.
      socket.off('error', fail);
      socket.off('timeout', timedOut);
      socket.setTimeout(0);
      resolve(socket);
    });
  });
}
