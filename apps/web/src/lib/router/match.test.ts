import { describe, expect, it } from 'vitest';
import { matchPath, matchRoutes, type Route, resolvePath } from './match.ts';

const ftp: Route = { path: 'ftp/', children: [{ index: true }] };
const serviceIndex: Route = { index: true };
const wrapper: Route = { children: [serviceIndex, ftp] };
const service: Route = { path: 'service/', children: [wrapper] };
const itemIndex: Route = { index: true };
const item: Route = { path: '/admin/:id/', children: [itemIndex, service] };
const dashboard: Route = { path: '/admin/' };
const activity: Route = { path: '/admin/activity/' };
const shell: Route = { children: [dashboard, activity, item] };
const notFound: Route = { path: '*' };
const routes: Route[] = [{ path: '/login/' }, shell, notFound];

const chain = (pathname: string) => matchRoutes(routes, pathname)?.matches.map((match) => match.route);

describe('matching a path against the route table', () => {
  it('reaches a page through its layouts, outermost first', () => {
    expect(chain('/admin/5/service/ftp/')).toEqual([shell, item, service, wrapper, ftp, ftp.children![0]]);
  });

  it('gives the parameters of the whole chain', () => {
    expect(matchRoutes(routes, '/admin/5/service/')?.params).toEqual({ id: '5' });
  });

  it('ends at the index route where the parent’s path ends', () => {
    expect(chain('/admin/5/')).toEqual([shell, item, itemIndex]);
    expect(chain('/admin/5/service/')).toEqual([shell, item, service, wrapper, serviceIndex]);
  });

  it('prefers the route that comes first, so a fixed path wins over a parameter after it', () => {
    expect(chain('/admin/activity/')).toEqual([shell, activity]);
  });

  it('falls to the catch-all when a child path matches nothing, instead of the parent alone', () => {
    expect(chain('/admin/5/nothing/')).toEqual([notFound]);
    expect(matchRoutes(routes, '/admin/5/nothing/')?.params).toEqual({ '*': 'admin/5/nothing' });
  });

  it('keeps no parameter of a branch that did not match', () => {
    const table: Route[] = [{ path: '/a/:x/', children: [{ path: 'b/' }] }, { path: '/a/:y/c/' }];
    expect(matchRoutes(table, '/a/1/c/')?.params).toEqual({ y: '1' });
  });

  it('ignores the trailing slash and the case of fixed segments', () => {
    expect(chain('/ADMIN/Activity')).toEqual([shell, activity]);
  });

  it('decodes parameters, and keeps one that is not valid percent-encoding as it is', () => {
    expect(matchPath('/admin/:id/*', '/admin/a%20b/x/')?.params.id).toBe('a b');
    expect(matchPath('/admin/:id/*', '/admin/%E0%A4%A/x/')?.params.id).toBe('%E0%A4%A');
  });

  it('matches nothing in a table without a catch-all', () => {
    expect(matchRoutes([{ path: '/login/' }], '/admin/')).toBeNull();
  });
});

describe('matching one pattern', () => {
  it('needs the whole path unless the pattern ends in a splat', () => {
    expect(matchPath('/admin/:id/', '/admin/5/domain/')).toBeNull();
    expect(matchPath('/admin/:id/*', '/admin/5/domain/')?.params).toEqual({ id: '5', '*': 'domain' });
    expect(matchPath('/admin/:id/*', '/admin/')).toBeNull();
  });
});

describe('resolving a link', () => {
  it('reads a relative path from the current one', () => {
    expect(resolvePath('ftp/', '/admin/5/service/')).toBe('/admin/5/service/ftp/');
  });

  it('keeps an absolute path and its query', () => {
    expect(resolvePath('/admin/activity/?item=5', '/admin/5/domain/')).toBe('/admin/activity/?item=5');
  });

  it('cannot leave the panel’s origin', () => {
    expect(resolvePath('//evil.example/x', '/admin/')).toBe('/x');
    expect(resolvePath('https://evil.example/x', '/admin/')).toBe('/x');
  });
});
