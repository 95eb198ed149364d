import t from 'tap';
import { localBaseUrl } from '../../shared/net/local-base-url.js';

t.test('the base URL of a gateway without PUBLIC_URL', async (t) => {
  t.equal(localBaseUrl('127.0.0.1', 3000), 'http://127.0.0.1:3000');
  t.equal(localBaseUrl('0.0.0.0', 3000), 'http://127.0.0.1:3000', 'every IPv4 interface: loopback');
  t.equal(localBaseUrl('::', 3000), 'http://127.0.0.1:3000', 'every interface: loopback');
  t.equal(localBaseUrl('::1', 3000), 'http://[::1]:3000', 'an IPv6 address in brackets');
  t.equal(localBaseUrl('crm.internal', 80), 'http://crm.internal:80');
  for (const host of ['::1', 'fe80::1', '0.0.0.0']) t.doesNotThrow(() => new URL(localBaseUrl(host, 1)), `${host} gives a URL`);
});
