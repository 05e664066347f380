/// <reference lib="dom" />
/**
 * What every view shares: building elements, number formats, and calling tools through the host
 * (MCP Apps: the view never talks to the server itself; the host relays `tools/call`).
 */
import type { App } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/client';

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | null | undefined | EventListener>;

/** An element with attributes (`on*` attributes are listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element, as {@link h}. */
export function svg(tag: string, attributes: Attributes = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag) as SVGElement;
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value !== null && value !== undefined && value !== false)
      element.setAttribute(name, value === true ? '' : String(value));
  }
}

function append(element: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'object' ? child : String(child));
  }
}

/** Replaces what the view shows. */
export function show(root: HTMLElement, ...children: Child[]): void {
  root.replaceChildren();
  append(root, children);
}

const usdFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** `$1,234.56`. */
export function usd(value: number): string {
  return usdFormat.format(value);
}

/** `+$12.30` / `-$4.00`: a change of money. */
export function signedUsd(value: number): string {
  return `${value > 0 ? '+' : value < 0 ? '-' : ''}${usdFormat.format(Math.abs(value))}`;
}

/** `$1.2M`: amounts in tight spaces. */
export function compactUsd(value: number): string {
  return `$${compactFormat.format(value)}`;
}

/** A price with the market's price step (BTC 0.1, ETH 0.01). */
export function price(value: number, market: string): string {
  const decimals = market === 'BTC' ? 1 : 2;
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;
}

/** `+1.23%`. */
export function percent(value: number, signed = false): string {
  return `${signed && value > 0 ? '+' : ''}${value.toFixed(2)}%`;
}

/** `+` / `-` / `` class suffix of a signed amount, for colouring gains and losses. */
export function tone(value: number): 'gain' | 'loss' | 'flat' {
  return value > 0 ? 'gain' : value < 0 ? 'loss' : 'flat';
}

export function time(epochMs: number | string, withDate = false): string {
  const options: Intl.DateTimeFormatOptions = withDate
    ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }
    : { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false };
  return new Date(epochMs).toLocaleString('en-US', options);
}

/** `0x1234…abcd`. */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** A labelled value of a definition grid. */
export function fact(label: string, value: Child, className = ''): HTMLElement {
  return h('div', { class: `fact ${className}`.trim() }, h('dt', {}, label), h('dd', {}, value));
}

/** A tool's refusal as the server words it: `<code>: <message>`. */
export class ToolRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The data of a successful tool result; a refusal (isError) is thrown as a ToolRefusal. */
export function dataOf<T>(result: CallToolResult): T {
  if (result.isError) {
    const text = result.content.find((c) => c.type === 'text')?.text ?? 'unknown_error: The tool failed.';
    const colon = text.indexOf(': ');
    throw colon > 0 ? new ToolRefusal(text.slice(0, colon), text.slice(colon + 2)) : new ToolRefusal('error', text);
  }
  return result.structuredContent as T;
}

/** Calls a tool of this server through the host and returns its data (or throws its refusal). */
export async function callTool<T>(app: App, name: string, args: Record<string, unknown>): Promise<T> {
  return dataOf<T>(await app.callServerTool({ name, arguments: args }));
}

/** The message to show for a failed call. */
export function failureText(error: unknown): string {
  if (error instanceof ToolRefusal) return error.message;
  return `The request did not go through (${error instanceof Error ? error.message : String(error)}). Try again.`;
}

/** Tells the model what the person did in the view, when the host accepts context updates. */
export async function tellModel(app: App, text: string): Promise<void> {
  if (!app.getHostCapabilities()?.updateModelContext) return;
  try {
    await app.updateModelContext({ content: [{ type: 'text', text }] });
  } catch {
    // The host may refuse context updates; the view's state already shows what happened.
  }
}

/** A view draws a tool's input and result and may act through the host afterwards. */
export interface View {
  input?(args: Record<string, unknown>): void;
  result(result: CallToolResult): void;
  dispose?(): void;
}
