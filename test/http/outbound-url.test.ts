import assert from 'node:assert/strict';
import type dns from 'node:dns';
import { isPublicAddress, OUTBOUND_MESSAGES, OutboundAddressError, outboundUrlRefusal, publicOnlyConnection } from '../../src/http/outbound-url';

/** A resolver that answers from a table (and fails for anything else), recording what it was asked. */
function fakeLookup(table: Record<string, string[]>) {
  const asked: string[] = [];
  const lookup = async (hostname: string) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address }));
  };
  return { lookup, asked };
}

describe('outbound URLs: public addresses only', () => {
  it('when an address is loopback, private, link-local, unspecified, CGNAT, metadata, multicast or reserved, then it is not public', () => {
    const blocked = [
      '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '100.64.0.1', '100.127.255.255',
      '169.254.169.254', '169.254.0.1', '0.0.0.0', '0.1.2.3', '192.0.0.192', '224.0.0.1', '255.255.255.255', '198.18.0.1',
      '::', '::1', 'fc00::1', 'fd00:ec2::254', 'fe80::1', 'fe80::1%eth0', 'fec0::1', 'ff02::1', '[::1]',
      // IPv6 forms that carry a blocked IPv4 address.
      '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b::10.0.0.1',
      '2002:7f00:1::', '2002:c0a8:101::1',
      // Not an address at all.
      'localhost', '', '2130706433',
    ];
    for (const address of blocked) assert.equal(isPublicAddress(address), false, address);
  });

  it('when an IPv6 address lies outside global unicast 2000::/3, then it is not public, whatever it embeds', () => {
    const outside = [
      '::8.8.8.8', '::2', '1::1', '100::1', '400::1', '1fff:ffff::1', '4000::1', '5f00::1', 'e000::1', 'fb00::1', 'fe00::1',
      // IPv4-translated (::ffff:0:a.b.c.d, RFC 2765): private even with a public IPv4 inside.
      '::ffff:0:808:808', '::ffff:0:8.8.8.8', '::ffff:0:7f00:1',
      // Inside 64:ff9b::/32 but not the /96 NAT64 prefix.
      '64:ff9b:5::808:808', '64:ff9b:0:1::808:808',
    ];
    for (const address of outside) assert.equal(isPublicAddress(address), false, address);
  });

  it('when a NAT64 address carries a private IPv4 (well-known 64:ff9b::/96), or uses the local-use 64:ff9b:1::/48, then it is not public', () => {
    const nat64 = [
      '64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::192.168.1.1', '64:ff9b::172.16.0.1', '64:ff9b::100.64.0.1', '64:ff9b::0.0.0.0',
      // Local-use: the operator's own translator, whose prefix length (and so the IPv4's place) is unknown here.
      '64:ff9b:1::808:808', '64:ff9b:1::a00:1', '64:ff9b:1:ffff::1', '64:ff9b:1:7f00:1::',
    ];
    for (const address of nat64) assert.equal(isPublicAddress(address), false, address);
  });

  it('when an address is public unicast (IPv4, IPv6, or IPv6 carrying a public IPv4), then it is public', () => {
    for (const address of ['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '64:ff9b::8.8.4.4', '2002:808:808::1', '2001:4860:4860::8888', '2c0f:fb50::1']) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  it('when a URL names a non-public address in any spelling the parsers accept, then it is refused without a lookup', async () => {
    const { lookup, asked } = fakeLookup({});
    const urls = [
      'http://127.0.0.1/', 'http://2130706433/', 'http://0x7f000001/', 'http://0x7f.1/', 'http://017700000001/', 'http://127.1/', 'http://%31%32%37.0.0.1/',
      'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'https://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://[::]/', 'http://0/',
    ];
    for (const url of urls) assert.equal(await outboundUrlRefusal(url, lookup), OUTBOUND_MESSAGES.privateAddress, url);
    assert.deepEqual(asked, []);
  });

  it('when an smtp: URL spells a loopback address as a number (its host is opaque to the URL parser), then it is still refused', async () => {
    // The resolver here claims the raw spelling is public: the web reading (127.0.0.1) must refuse it anyway.
    const { lookup } = fakeLookup({ '2130706433': ['93.184.216.34'] });
    assert.equal(await outboundUrlRefusal('smtp://user:pass@2130706433:25', lookup), OUTBOUND_MESSAGES.privateAddress);
    assert.equal(await outboundUrlRefusal('smtps://[::ffff:7f00:1]:465', lookup), OUTBOUND_MESSAGES.privateAddress);
  });

  it('when a name resolves, then every address must be public: one private address among public ones refuses it', async () => {
    const { lookup } = fakeLookup({
      'mail.example.test': ['93.184.216.34', '2606:4700::1111'],
      'split.example.test': ['93.184.216.34', '10.0.0.5'],
      'mapped.example.test': ['::ffff:169.254.169.254'],
      'empty.example.test': [],
    });
    assert.equal(await outboundUrlRefusal('https://mail.example.test/send', lookup), null);
    assert.equal(await outboundUrlRefusal('smtp://u:p@MAIL.example.test:587', lookup), null, 'an smtp: host is looked up case-insensitively');
    assert.equal(await outboundUrlRefusal('https://split.example.test/', lookup), OUTBOUND_MESSAGES.privateAddress);
    assert.equal(await outboundUrlRefusal('https://mapped.example.test/', lookup), OUTBOUND_MESSAGES.privateAddress);
    assert.equal(await outboundUrlRefusal('https://empty.example.test/', lookup), OUTBOUND_MESSAGES.unresolvable);
    assert.equal(await outboundUrlRefusal('https://nowhere.example.test/', lookup), OUTBOUND_MESSAGES.unresolvable);
    assert.equal(await outboundUrlRefusal('not a url', lookup), OUTBOUND_MESSAGES.invalid);
  });

  it('when the system resolver is used, then localhost is refused and a public literal accepted', async () => {
    assert.equal(await outboundUrlRefusal('http://localhost:8080/send'), OUTBOUND_MESSAGES.privateAddress);
    assert.equal(await outboundUrlRefusal('https://93.184.216.34/send'), null);
  });

  describe('at connection time', () => {
    const lookupOf = (url: string) => publicOnlyConnection(new URL(url)).lookup;
    const call = (url: string, host: string, options: dns.LookupOptions) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
        lookupOf(url)(host, options, (err, address, family) => resolve({ err, address, family })),
      );

    it('when the URL is a non-public literal (dialled without a lookup), then the request is refused before it starts', () => {
      for (const url of ['http://127.0.0.1:8080/', 'http://[::1]/', 'http://[::ffff:a9fe:a9fe]/', 'http://2130706433/']) {
        assert.throws(() => publicOnlyConnection(new URL(url)), OutboundAddressError, url);
      }
    });

    it('when a name resolves to a non-public address as the connection is made, then the lookup fails it; a public one passes in both lookup shapes', async () => {
      const refused = await call('http://localhost/', 'localhost', {});
      assert.ok(refused.err instanceof OutboundAddressError);
      assert.equal(refused.err.code, 'EOUTBOUNDPRIVATE');

      assert.deepEqual(await call('http://8.8.8.8/', '8.8.8.8', {}), { err: null, address: '8.8.8.8', family: 4 });
      const all = await call('http://8.8.8.8/', '8.8.8.8', { all: true });
      assert.equal(all.err, null);
      assert.deepEqual(all.address, [{ address: '8.8.8.8', family: 4 }]);
    });
  });
});
