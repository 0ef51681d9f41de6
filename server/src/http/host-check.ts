/**
 * The Host header check against DNS rebinding: a web page whose name an attacker points at 127.0.0.1 can
 * make the browser send requests to a loopback server, but those requests carry the attacker's name in
 * Host. A server bound to loopback therefore answers only loopback names, plus the names an operator lists
 * (`--allowed-host`) when it serves a real name; any other Host is a 421 before routing or sign-in.
 */
import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { HttpProblem } from './problem.ts';

/** `any` answers every Host (a server on a public address with no --allowed-host); else the names below. */
export type HostPolicy = 'any' | { loopback: boolean; names: readonly string[] };

/** A bind address is loopback when every connection to it comes from this machine. */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The name part of a Host header (`name`, `name:port`, `[v6]:port`), lower-cased; undefined if malformed. */
export function hostName(header: string): string | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(header.trim());
  return match?.[1]?.toLowerCase().replace(/\.$/, '');
}

/**
 * What `serve` applies for a bind address: loopback names when bound to loopback; the operator's names in
 * any case; with neither (a public bind and no list), every name, as a reverse proxy in front would check.
 */
export function hostPolicyFor(bindHost: string, allowedHosts: readonly string[]): HostPolicy {
  const loopback = isLoopbackAddress(bindHost);
  if (!loopback && allowedHosts.length === 0) return 'any';
  return { loopback, names: allowedHosts.map((name) => name.toLowerCase().replace(/\.$/, '')) };
}

export function isAllowedHost(header: string | undefined, policy: HostPolicy): boolean {
  if (policy === 'any') return true;
  const name = header === undefined ? undefined : hostName(header);
  if (name === undefined) return false;
  return (policy.loopback && isLoopbackAddress(name)) || policy.names.includes(name);
}

/** An onRequest hook, first of all: a foreign Host learns nothing, not even which paths exist. */
export function hostCheck(policy: HostPolicy) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const host = request.headers.host;
    if (isAllowedHost(host, policy)) return done();
    done(
      new HttpProblem(
        421,
        `this server does not answer for the host name "${(host ?? '').slice(0, 100)}"; ` +
          'use its loopback address or a name it was started with (--allowed-host)',
      ),
    );
  };
}
