import type { InlineKeyboard } from './telegram-bot.client';

/** Views of the bot that are paged with buttons under the message. */
export type PagedView = 'list' | 'positions';

const VIEW_KEYS: Record<PagedView, string> = { list: 'l', positions: 'p' };
const DATA = /^(l|p):(\d{1,4})$/;

/** What a press of a paging button asks for. */
export interface PageButton {
  view: PagedView;
  page: number;
}

export function parsePageButton(raw: string | undefined): PageButton | undefined {
  const match = raw ? DATA.exec(raw) : null;
  if (!match) return undefined;
  const view = (Object.keys(VIEW_KEYS) as PagedView[]).find((v) => VIEW_KEYS[v] === match[1])!;
  return { view, page: Number(match[2]) };
}

/** A page of `size` items out of `total`, pages numbered from 1 (an out-of-range page shows the last one). */
export function pageOf(total: number, size: number, requested: number): { page: number; pages: number; from: number } {
  const pages = Math.max(1, Math.ceil(total / size));
  const page = Math.min(Math.max(1, Math.trunc(requested) || 1), pages);
  return { page, pages, from: (page - 1) * size };
}

/** ‹ and › buttons to the neighbouring pages (none when everything fits on one page). */
export function pageKeyboard(view: PagedView, page: number, pages: number): InlineKeyboard | undefined {
  if (pages <= 1) return undefined;
  const key = VIEW_KEYS[view];
  const row = [
    ...(page > 1 ? [{ text: `‹ Page ${page - 1}`, callback_data: `${key}:${page - 1}` }] : []),
    ...(page < pages ? [{ text: `Page ${page + 1} ›`, callback_data: `${key}:${page + 1}` }] : []),
  ];
  return [row];
}
