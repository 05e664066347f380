import { checkTarget, type LookupAll, parseAllowHosts, TargetNotAllowedError } from './ssrf-guard';

const publicLookup: LookupAll = async () => [{ address: '93.184.216.34', family: 4 }];

async function refusal(url: string, lookup: LookupAll = publicLookup, allowHosts: string[] = []): Promise<string> {
  try {
    await checkTarget(url, { lookup, allowHosts });
  } catch (error) {
    expect(error).toBeInstanceOf(TargetNotAllowedError);
    return (error as Error).message;
  }
  throw new Error(`${url} was allowed`);
}

describe('checkTarget', () => {
  it.each([
    ['http://127.0.0.1/hook', 'loopback'],
    ['http://127.1/hook', 'loopback'],
    ['http://2130706433/hook', 'loopback'],
    ['http://0x7f000001/hook', 'loopback'],
    ['http://0177.0.0.1/hook', 'loopback'],
    ['http://[::1]/hook', 'loopback'],
    ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['http://[::ffff:7f00:1]:8080/hook', 'loopback'],
    ['http://10.0.0.1/hook', 'private'],
    ['http://172.16.5.4/hook', 'private'],
    ['http://192.168.1.1/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[fc00::1]/', 'private'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://224.0.0.1/', 'multicast'],
  ])('refuses %s (%s)', async (url, words) => {
    expect(await refusal(url)).toContain(words);
  });

  it('refuses local names without asking DNS', async () => {
    const lookup = jest.fn(publicLookup);
    expect(await refusal('http://localhost:3000/', lookup)).toContain('local name');
    expect(await refusal('http://api.localhost/', lookup)).toContain('local name');
    expect(await refusal('http://intranet/', lookup)).toContain('local name');
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses names that resolve to private addresses, even when only one of them does', async () => {
    expect(await refusal('https://internal.example.com/', async () => [{ address: '10.1.2.3', family: 4 }])).toContain(
      'resolves to 10.1.2.3',
    );
    const mixed: LookupAll = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '::1', family: 6 },
    ];
    expect(await refusal('https://mixed.example.com/', mixed)).toContain('loopback');
  });

  it('refuses names that do not resolve', async () => {
    const failing: LookupAll = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await refusal('https://nowhere.example.com/', failing)).toContain('does not resolve');
  });

  it('refuses other schemes, credentials and junk', async () => {
    expect(await refusal('ftp://example.com/')).toContain('http or https');
    expect(await refusal('file:///etc/passwd')).toContain('http or https');
    expect(await refusal('https://user:pass@example.com/')).toContain('credentials');
    expect(await refusal('not a url')).toContain('valid absolute URL');
  });

  it('allows public hosts and pins the checked address', async () => {
    const checked = await checkTarget('https://hooks.example.com/in?x=1', { lookup: publicLookup });
    expect(checked).toMatchObject({
      hostname: 'hooks.example.com',
      address: '93.184.216.34',
      family: 4,
      allowListed: false,
    });
    expect(checked.url.toString()).toBe('https://hooks.example.com/in?x=1');
  });

  it('allows public IP literals', async () => {
    expect((await checkTarget('http://8.8.8.8:8080/')).address).toBe('8.8.8.8');
    expect((await checkTarget('http://[2606:4700:4700::1111]/')).address).toBe('2606:4700:4700::1111');
  });

  it('lets the allow-list open exactly the listed host and port', async () => {
    const allowHosts = parseAllowHosts(' 127.0.0.1:4000 , Receiver.Test ');
    expect(allowHosts).toEqual(['127.0.0.1:4000', 'receiver.test']);
    expect((await checkTarget('http://127.0.0.1:4000/hook', { allowHosts })).allowListed).toBe(true);
    expect(await refusal('http://127.0.0.1:4001/hook', publicLookup, allowHosts)).toContain('loopback');
    const local: LookupAll = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(await checkTarget('http://receiver.test:9999/', { allowHosts, lookup: local })).toMatchObject({
      address: '127.0.0.1',
      allowListed: true,
    });
  });
});
