import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts listening and returns the port (useful when `port` is 0: a free one). */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}
