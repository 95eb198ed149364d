import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface TestCertificates {
  ca: string;
  cert: string;
  key: string;
}

/** A throwaway CA and a server certificate for 127.0.0.1 (nats.js checks it as "localhost"), made with openssl in `dir`. */
export function makeTestCertificates(dir: string): TestCertificates {
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.crt'), '-days', '1', '-subj', '/CN=crm test CA');
  openssl('req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('server.crt'), '-days', '1', '-extfile', file('server.ext'));
  return { ca: file('ca.crt'), cert: file('server.crt'), key: file('server.key') };
}
