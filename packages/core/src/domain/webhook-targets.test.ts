import { describe, expect, it } from 'vitest';
import { hostOf, isPrivateAddress, privateTargetProblem, webhookUrlProblem } from './webhook-targets.ts';

describe('webhook targets', () => {
  it('calls loopback, private, link-local, CGNAT, multicast and reserved addresses private', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '240.0.0.1',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::FFFF:10.0.0.1',
      // every IPv6 spelling of a private IPv4 address, and the IPv6 prefixes that lead to one
      '::ffff:7f00:1',
      '::127.0.0.1',
      '::7f00:1',
      '::ffff:0:7f00:1',
      '::ffff:0:127.0.0.1',
      '2002:7f00:1::',
      '2002:a9fe:a9fe::1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::1',
      'fec0::1',
      'feff::1',
      '2001:0:4136:e378::1',
      'not an address',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
  });

  it('lets public addresses through', () => {
    for (const address of [
      '203.0.113.9',
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '2001:db8::1',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '2002:808:808::1',
      '2606:4700::1111',
    ])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('reads the host of a URL, IPv6 brackets removed', () => {
    expect(hostOf(new URL('http://[::1]:8080/hook'))).toBe('::1');
    expect(hostOf(new URL('https://hooks.example.com/x'))).toBe('hooks.example.com');
  });

  it('explains a refused target given as an address, and passes a public one (no DNS needed)', async () => {
    expect(await privateTargetProblem('http://127.0.0.1:8080/hook')).toMatch(
      /^Targets on loopback or private addresses \(127\.0\.0\.1\) are refused unless WEBHOOK_ALLOW_PRIVATE=1$/,
    );
    expect(await privateTargetProblem('http://[::1]/hook')).toMatch(/\(::1\)/);
    expect(await privateTargetProblem('https://203.0.113.9/hook')).toBeUndefined();
  });

  it('takes only what the URL parser accepts as http or https (docs/changes-and-webhooks.md#webhooks--key)', async () => {
    for (const url of [
      'http://[::1/',
      'http://a:99999/',
      'http://%zz/',
      'http://[fe80::1%25eth0]/',
      'ftp://a/',
    ]) {
      expect(webhookUrlProblem(url), url).toMatch(/^Invalid URL/);
      expect(await privateTargetProblem(url), url).toMatch(/^Invalid URL/);
    }
    for (const url of ['https://例子.cn/路径', 'HTTP://A.example:65535/x?y#z', 'http://[2001:db8::1]/'])
      expect(webhookUrlProblem(url), url).toBeUndefined();
  });

  it('a name that resolves to a private address is refused without the address', async () => {
    const problem = await privateTargetProblem('http://localhost:8080/hook');
    expect(problem).toMatch(/the host localhost resolves to a loopback or private address$/);
    expect(problem).not.toMatch(/127\.0\.0\.1|::1/);
  });
});
