import { QUOTE_VALIDITY_TEXT } from '@paper/contracts';
import type { StoredGuardrails } from '@paper/oauth-data';

function usdc(value: string | null): string {
  if (value === null) return 'No limit';
  const [whole, fraction] = value.split('.');
  const grouped = (whole ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${fraction ? `${grouped}.${fraction}` : grouped} USDC`;
}

/** What "preview before each open" enforces, in the words of the consent page. */
export const PREVIEW_NOTE = `Preview before each open: every open must present a quote from a preview of the same trade, valid for ${QUOTE_VALIDITY_TEXT} and usable once.`;

/** Guardrails as label/value pairs in plain words. */
export function describeGuardrails(g: StoredGuardrails): { label: string; value: string }[] {
  return [
    { label: 'Maximum margin per trade', value: usdc(g.maxMarginPerTradeUsd) },
    { label: 'Maximum leverage', value: g.maxLeverage === null ? 'No limit' : `${g.maxLeverage}×` },
    { label: 'Maximum daily notional', value: usdc(g.maxDailyNotionalUsd) },
    { label: 'Maximum open positions', value: g.maxOpenPositions === null ? 'No limit' : String(g.maxOpenPositions) },
    { label: 'Markets', value: g.allowedMarkets === null ? 'All markets' : g.allowedMarkets.join(', ') },
    { label: 'Preview before each open', value: g.requireConfirmation ? 'Required' : 'Not required' },
  ];
}
