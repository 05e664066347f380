import { classifyAddress, ipv6Groups, normalizeIpv4 } from './ip-address';

describe('normalizeIpv4', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0x7F.0.0.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0177.0.0.01', '127.0.0.1'],
    ['10.1', '10.0.0.1'],
    ['192.168.257', '192.168.1.1'],
    ['8.8.8.8.', '8.8.8.8'],
    ['0', '0.0.0.0'],
  ])('reads %s as %s', (input, expected) => {
    expect(normalizeIpv4(input)).toBe(expected);
  });

  it.each(['example.com', '256.0.0.1', '1.2.3.4.5', '4294967296', '08.0.0.1', '0x', '1..2', '', 'a.b.c.d'])(
    'does not read %s as IPv4',
    (input) => {
      expect(normalizeIpv4(input)).toBe(input === '0x' ? '0.0.0.0' : undefined);
    },
  );
});

describe('ipv6Groups', () => {
  it('expands compressed and dotted forms', () => {
    expect(ipv6Groups('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(ipv6Groups('2001:db8::8:800:200c:417a')).toEqual([0x2001, 0xdb8, 0, 0, 8, 0x800, 0x200c, 0x417a]);
    expect(ipv6Groups('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('not:an:address')).toBeUndefined();
  });
});

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['100.64.0.1', 'shared_cgnat'],
    ['100.127.255.255', 'shared_cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link_local'],
    ['febf::1', 'link_local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['::ffff:8.8.8.8', 'reserved'],
    ['100::1', 'reserved'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });

  it.each(['example.com', '1.2.3.4.5', 'fe80::zz', ''])('%s is not an address', (input) => {
    expect(classifyAddress(input)).toBe('invalid');
  });
});
