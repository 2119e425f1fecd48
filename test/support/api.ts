import { type HttpResult, type RequestOptions, request } from './http-client.js';
import type { ServerProcess } from './server-process.js';

type Api = (method: string, path: string, o?: Omit<RequestOptions, 'ca' | 'method'>) => Promise<HttpResult>;

/** Request helpers bound to a server: `admin` uses the admin client certificate. */
export function apiOf(server: Pick<ServerProcess, 'url' | 'admin'>): { admin: Api; anonymous: Api } {
  return {
    admin: (method, path, o = {}) =>
      request(server.url, path, { ...o, method, ca: server.admin.ca, as: o.as ?? server.admin }),
    anonymous: (method, path, o = {}) =>
      request(server.url, path, { ...o, method, ca: server.admin.ca, as: 'anonymous' }),
  };
}
