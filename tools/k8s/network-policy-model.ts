/**
 * A small evaluator of Kubernetes NetworkPolicies for the manifest tests: given the rendered objects,
 * may pod A open a TCP connection to pod B (both in the namespace), may a namespace reach a pod, may
 * a pod reach an external address? It follows the API's semantics: a pod selected by any policy of a
 * direction is isolated in that direction and allowed only what some rule of such a policy allows;
 * a connection between pods needs both the sender's egress and the receiver's ingress.
 */
import type { K8sObject } from './manifests';

type Labels = Record<string, string>;

interface Selector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

interface Peer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}

interface Rule {
  ports?: { port?: number | string; protocol?: string }[];
  from?: Peer[];
  to?: Peer[];
}

export interface Pod {
  name: string;
  labels: Labels;
}

/** Where a connection goes: a pod of the namespace, a pod of another namespace, or an external IPv4 address. */
export type Target = { pod: Pod } | { namespace: string } | { ip: string };

function ipv4(address: string): number | undefined {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + p, 0);
}

/** Is the IPv4 address inside the CIDR? (IPv6 blocks never contain an IPv4 address.) */
export function inCidr(address: string, cidr: string): boolean {
  const [network, bits] = cidr.split('/');
  const ip = ipv4(address);
  const base = ipv4(network ?? '');
  if (ip === undefined || base === undefined) return false;
  const size = 2 ** (32 - Number(bits));
  return Math.floor(ip / size) === Math.floor(base / size);
}

export function matches(selector: Selector | undefined, labels: Labels): boolean {
  if (!selector) return true;
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpression = (selector.matchExpressions ?? []).every((e) => {
    const value = labels[e.key];
    switch (e.operator) {
      case 'In':
        return value !== undefined && (e.values ?? []).includes(value);
      case 'NotIn':
        return value === undefined || !(e.values ?? []).includes(value);
      case 'Exists':
        return value !== undefined;
      case 'DoesNotExist':
        return value === undefined;
    }
  });
  return byLabel && byExpression;
}

function portAllowed(rule: Rule, port: number): boolean {
  return (
    !rule.ports ||
    rule.ports.length === 0 ||
    rule.ports.some((p) => (p.protocol ?? 'TCP') === 'TCP' && (p.port === undefined || p.port === port))
  );
}

function peerMatches(peer: Peer, target: Target): boolean {
  if ('pod' in target) {
    // A peer without a namespaceSelector means this namespace; ipBlocks never name pods here.
    return !peer.ipBlock && !peer.namespaceSelector && matches(peer.podSelector, target.pod.labels);
  }
  if ('namespace' in target) {
    return (
      !peer.ipBlock &&
      peer.namespaceSelector !== undefined &&
      matches(peer.namespaceSelector, { 'kubernetes.io/metadata.name': target.namespace })
    );
  }
  const block = peer.ipBlock;
  return (
    block !== undefined && inCidr(target.ip, block.cidr) && !(block.except ?? []).some((e) => inCidr(target.ip, e))
  );
}

export class NetworkPolicyModel {
  private readonly policies: K8sObject[];

  constructor(objects: readonly K8sObject[]) {
    this.policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  }

  private rules(pod: Pod, direction: 'Ingress' | 'Egress'): Rule[] | undefined {
    const selecting = this.policies.filter(
      (p) => (p.spec.policyTypes ?? ['Ingress']).includes(direction) && matches(p.spec.podSelector, pod.labels),
    );
    if (selecting.length === 0) return undefined;
    return selecting.flatMap((p) => (direction === 'Ingress' ? p.spec.ingress : p.spec.egress) ?? []);
  }

  /** May `from` send to the target on the TCP port (egress side only)? */
  egressAllowed(from: Pod, target: Target, port: number): boolean {
    const rules = this.rules(from, 'Egress');
    if (!rules) return true;
    return rules.some(
      (r) => portAllowed(r, port) && (!r.to || r.to.length === 0 || r.to.some((peer) => peerMatches(peer, target))),
    );
  }

  /** May `to` receive from the source on the TCP port (ingress side only)? */
  ingressAllowed(to: Pod, source: Target, port: number): boolean {
    const rules = this.rules(to, 'Ingress');
    if (!rules) return true;
    return rules.some(
      (r) =>
        portAllowed(r, port) && (!r.from || r.from.length === 0 || r.from.some((peer) => peerMatches(peer, source))),
    );
  }

  /** A connection between two pods of the namespace: the sender's egress and the receiver's ingress. */
  connects(from: Pod, to: Pod, port: number): boolean {
    return this.egressAllowed(from, { pod: to }, port) && this.ingressAllowed(to, { pod: from }, port);
  }
}

/** The pods the rendered workloads would create, with their template labels. */
export function podsOf(objects: readonly K8sObject[]): Pod[] {
  return objects
    .filter((o) => ['Deployment', 'StatefulSet', 'Job'].includes(o.kind))
    .map((o) => ({ name: o.metadata.name, labels: o.spec.template.metadata.labels as Labels }));
}
